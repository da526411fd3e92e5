import { rm } from 'node:fs/promises';
import Database from 'better-sqlite3';
import type { ArticleMetadata } from '../release/types.ts';
import { ARTICLE_COLUMNS, CREATE_STAGING_SQL, CREATE_STORE_SQL, METADATA_STORE_FORMAT, METADATA_STORE_FORMAT_VERSION } from './schema.ts';

/** What the store writer needs about each article beyond its metadata. */
export interface StagedArticle {
  readonly month: number;
  readonly localDoc: number;
  readonly shardId: string;
  readonly textBytes: number;
  readonly metadata: ArticleMetadata;
}

/** A shard of the year, in doc_ix order, with the doc_ix of its first article. */
export interface YearShardPlan {
  readonly month: number;
  readonly docBase: number;
  readonly docCount: number;
}

export interface YearStoreWriter {
  add(article: StagedArticle): void;
  /** Writes the final store in doc_ix order and removes the staging file. Returns the article count. */
  finish(plan: readonly YearShardPlan[], indexVersion: string): Promise<number>;
  /** Closes without finishing (failed build). */
  abort(): void;
}

const BATCH_ROWS = 2000;

/**
 * Writes one crawl year's metadata store. Articles arrive in input order, keyed by (month, shard-local doc) in a
 * staging database; `finish` copies them into `articles` keyed by doc_ix, so memory stays at one batch.
 */
export function createYearStoreWriter(path: string, stagingPath: string, year: string): YearStoreWriter {
  const staging = new Database(stagingPath);
  // The release is written into a temporary folder and renamed when complete, so durability per write buys nothing.
  staging.pragma('journal_mode = OFF');
  staging.pragma('synchronous = OFF');
  staging.exec(CREATE_STAGING_SQL);
  const insert = staging.prepare(
    `INSERT INTO staging (month, local_doc, ${ARTICLE_COLUMNS.join(', ')}) VALUES (${['?', '?', ...ARTICLE_COLUMNS.map(() => '?')].join(', ')})`,
  );
  let batch: unknown[][] = [];
  const insertBatch = staging.transaction((rows: unknown[][]) => {
    for (const r of rows) insert.run(r);
  });
  const flush = (): void => {
    if (batch.length === 0) return;
    insertBatch(batch);
    batch = [];
  };

  return {
    add(a) {
      batch.push([a.month, a.localDoc, ...rowValues(a)]);
      if (batch.length >= BATCH_ROWS) flush();
    },
    async finish(plan, indexVersion) {
      flush();
      staging.close();
      const db = new Database(path);
      try {
        db.pragma('journal_mode = OFF');
        db.pragma('synchronous = OFF');
        db.exec(CREATE_STORE_SQL);
        db.prepare('ATTACH DATABASE ? AS s').run(stagingPath);
        const copy = db.prepare(
          `INSERT INTO articles (doc_ix, ${ARTICLE_COLUMNS.join(', ')})
           SELECT ? + local_doc, ${ARTICLE_COLUMNS.join(', ')} FROM s.staging WHERE month = ? ORDER BY local_doc`,
        );
        let total = 0;
        db.transaction(() => {
          for (const shard of [...plan].sort((a, b) => a.month - b.month)) {
            const copied = copy.run(shard.docBase, shard.month).changes;
            if (copied !== shard.docCount || shard.docBase !== total) {
              throw new Error(`metadata store ${year}: month ${shard.month} has ${copied} rows, expected ${shard.docCount} from doc_ix ${total}`);
            }
            total += copied;
          }
          const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
          meta.run('format', METADATA_STORE_FORMAT);
          meta.run('format_version', String(METADATA_STORE_FORMAT_VERSION));
          meta.run('year', year);
          meta.run('doc_count', String(total));
          meta.run('index_version', indexVersion);
        })();
        db.exec('DETACH DATABASE s');
        return total;
      } finally {
        db.close();
        await rm(stagingPath, { force: true });
      }
    },
    abort() {
      if (staging.open) staging.close();
    },
  };
}

function rowValues(a: StagedArticle): unknown[] {
  const m = a.metadata;
  return ARTICLE_COLUMNS.map((c) => {
    switch (c) {
      case 'scores': return m.scores ? JSON.stringify(m.scores) : null;
      case 'text_bytes': return a.textBytes;
      case 'shard_id': return a.shardId;
      default: return m[c];
    }
  });
}
