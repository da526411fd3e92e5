import { rm } from 'node:fs/promises';
import Database from 'better-sqlite3';
import type { ArticleMetadata } from './types.ts';
import { encodeArticle } from './doc-encoding.ts';
import { rowToMetadata, type Row } from './row-to-metadata.ts';
import {
  BLOCK_ROWS,
  CREATE_STORE_SQL,
  storePageBytes,
  METADATA_STORE_FORMAT,
  METADATA_STORE_FORMAT_VERSION,
  PROFILE_COLUMNS,
  READ_COLUMNS,
} from './schema.ts';
import { writeBlocks, type EncodedRow } from './block-writer.ts';
import { ARTICLE_COLUMNS, CREATE_STAGING_SQL } from './schema-v1.ts';

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
/** Staging rows read per query when the store is finished (an open iterator would keep the connection busy). */
const COPY_ROWS = 10_000;

/**
 * Writes one crawl year's metadata store. Articles arrive in input order, keyed by (month, shard-local doc) in a
 * staging database; `finish` reads them back in doc_ix order into compressed blocks, so memory stays at a few batches.
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
        db.pragma(`page_size = ${storePageBytes(plan.reduce((n, run) => n + run.docCount, 0))}`);
        db.pragma('journal_mode = OFF');
        db.pragma('synchronous = OFF');
        db.exec(CREATE_STORE_SQL);
        db.prepare('ATTACH DATABASE ? AS s').run(stagingPath);
        const read = db
          .prepare(
            `SELECT ${READ_COLUMNS.join(', ')} FROM s.staging
          WHERE month = ? AND local_doc >= ? AND local_doc < ? ORDER BY local_doc`,
          )
          .raw(true);
        const insertProfile = db.prepare(
          `INSERT INTO profiles (id, ${PROFILE_COLUMNS.join(', ')}) VALUES (${['?', ...PROFILE_COLUMNS.map(() => '?')].join(', ')})`,
        );
        // Profile ids in order of first use, so every part of a distributed build writes the same bytes.
        const profiles = new Map<string, number>();
        const profileId = (values: (string | null)[]): number => {
          const key = JSON.stringify(values);
          let id = profiles.get(key);
          if (id === undefined) {
            id = profiles.size;
            profiles.set(key, id);
            insertProfile.run(id, ...values);
          }
          return id;
        };
        const runs = [...plan].sort((a, b) => a.docBase - b.docBase);
        function* rows(): Generator<EncodedRow> {
          for (const run of runs) {
            for (let from = run.localFrom, end = run.localFrom + run.docCount; from < end; from += COPY_ROWS) {
              const staged = read.all(run.month, from, Math.min(end, from + COPY_ROWS)) as Row[];
              if (staged.length !== Math.min(end - from, COPY_ROWS)) {
                throw new Error(
                  `metadata store ${year}: month ${run.month} from article ${from} has ${staged.length} staged rows, expected ${Math.min(end - from, COPY_ROWS)}`,
                );
              }
              for (const row of staged) {
                const { profile, doc } = encodeArticle(rowToMetadata(row));
                yield { profile: profileId(profile), doc };
              }
            }
          }
        }
        // One transaction around the whole store (the journal is off; it saves a commit per statement).
        db.exec('BEGIN');
        await writeBlocks(db, rows);
        let total = 0;
        const insertShard = db.prepare('INSERT INTO shards (doc_base, doc_count, shard_id) VALUES (?, ?, ?)');
        let shard: { base: number; count: number; id: string } | undefined;
        for (const run of runs) {
          if (run.docBase !== total)
            throw new Error(
              `metadata store ${year}: month ${run.month} starts at doc_ix ${run.docBase}, expected ${total}`,
            );
          total += run.docCount;
          // Runs of one shard are consecutive (a yearly shard holds several months): one row per shard.
          if (shard?.id === run.shardId) shard.count += run.docCount;
          else {
            if (shard) insertShard.run(shard.base, shard.count, shard.id);
            shard = { base: run.docBase, count: run.docCount, id: run.shardId };
          }
        }
        if (shard) insertShard.run(shard.base, shard.count, shard.id);
        const meta = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
        meta.run('format', METADATA_STORE_FORMAT);
        meta.run('format_version', String(METADATA_STORE_FORMAT_VERSION));
        meta.run('year', year);
        meta.run('doc_count', String(total));
        meta.run('index_version', indexVersion);
        meta.run('block_rows', String(BLOCK_ROWS));
        db.exec('COMMIT');
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
      case 'scores':
        return m.scores ? JSON.stringify(m.scores) : null;
      case 'text_bytes':
        return a.textBytes;
      case 'shard_id':
        return ''; // the store takes shard ids from the plan when it is finished
      default:
        return m[c];
    }
  });
}
