import { rm } from 'node:fs/promises';
import Database from 'better-sqlite3';
import type { ArticleMetadata } from '../release/types.ts';
import { ARTICLE_COLUMNS, CREATE_STAGING_SQL, CREATE_STORE_SQL, METADATA_STORE_FORMAT, METADATA_STORE_FORMAT_VERSION } from './schema.ts';

/** What the store writer needs about each article beyond its metadata. */
export interface StagedArticle {
  readonly month: number;
  readonly localDoc: number;
  readonly textBytes: number;
  readonly metadata: ArticleMetadata;
}

/**
 * A run of one month's articles that lies in one shard (part), in doc_ix order: articles `localFrom` … `localFrom +
 * docCount − 1` of the month get doc_ix `docBase` … and `shard_id` = `shardId`. Shard ids are known only after
 * reading (a period is split into parts when it outgrows the part size), so they are set here, not when staged.
 */
export interface YearShardPlan {
  readonly month: number;
  readonly localFrom: number;
  readonly docBase: number;
  readonly docCount: number;
  readonly shardId: string;
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
        const selected = ARTICLE_COLUMNS.map((c) => (c === 'shard_id' ? '@shard' : c)).join(', ');
        const copy = db.prepare(
          `INSERT INTO articles (doc_ix, ${ARTICLE_COLUMNS.join(', ')})
           SELECT @base + local_doc - @from, ${selected} FROM s.staging
           WHERE month = @month AND local_doc >= @from AND local_doc < @from + @count ORDER BY local_doc`,
        );
        let total = 0;
        db.transaction(() => {
          for (const run of [...plan].sort((a, b) => a.docBase - b.docBase)) {
            const copied = copy.run({ base: run.docBase, from: run.localFrom, count: run.docCount, month: run.month, shard: run.shardId }).changes;
            if (copied !== run.docCount || run.docBase !== total) {
              throw new Error(`metadata store ${year}: month ${run.month} from article ${run.localFrom} has ${copied} rows, expected ${run.docCount} from doc_ix ${total}`);
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
      case 'shard_id': return ''; // set from the plan when the store is finished
      default: return m[c];
    }
  });
}
