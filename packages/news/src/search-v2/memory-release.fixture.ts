/**
 * Test fixture: a small release held in memory, built with the engine's real `buildShardInMemory` and a
 * metadata store over an array (the SQLite store is the release builder's, tested there). Shards are grouped
 * and numbered exactly as the builder does: chronological shards, `doc_ix` per crawl year in (month, input order).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addWords, encodeWordCounts, tableOfCounts, WORD_COUNT_FLOOR } from '../release/index.ts';
import { buildShardInMemory } from '../shard/index.ts';
import type {
  ArticleMetadata,
  FilterableField,
  IndexVersion,
  MetadataStore,
  OpenRelease,
  ReleaseIndex,
  ShardHandle,
  ShardId,
  ShardWordCountsRef,
} from '../release/types.ts';

export interface FixtureArticle {
  /** `YYYY-MM` or `YYYY`. */
  readonly shard: string;
  readonly text: string;
  readonly meta?: Partial<ArticleMetadata>;
}

export interface FixtureOptions {
  readonly indexVersion?: string;
  readonly indexName?: string;
  readonly hasCountryAttribution?: boolean;
  /** Years whose metadata store is absent (a 503 for v2). */
  readonly missingYears?: readonly string[];
  /** Write each shard's word-count table into this folder, as the builder does (absent: a release without tables). */
  readonly wordCountsDir?: string;
}

export const EMPTY_METADATA: ArticleMetadata = {
  url: null,
  title: null,
  author: null,
  sitename: null,
  hostname: null,
  warc_source: null,
  warc_record_id: null,
  warc_date: null,
  publish_date: null,
  date: null,
  date_source: null,
  language: null,
  lang: null,
  country_tld: null,
  country: null,
  country_source: null,
  country_confidence: null,
  iptc_topic: null,
  scores: null,
  text_xxhash64: '0',
};

function arrayStore(year: string, rows: readonly ArticleMetadata[]): MetadataStore {
  const get = (docIx: number) => (Number.isInteger(docIx) && docIx >= 0 ? rows[docIx] : undefined);
  const hasValues = (field: FilterableField) =>
    rows.some((r) => {
      const v = r[field];
      return v !== null && v !== '';
    });
  return {
    year,
    docCount: rows.length,
    get,
    filterFields: get,
    getMany: (ixs) => ixs.map(get),
    hasValues,
    close: () => {},
  };
}

function writeWordCounts(dir: string, shardId: string, docs: readonly FixtureArticle[]): ShardWordCountsRef {
  const counts = new Map<string, number>();
  for (const a of docs) addWords(counts, a.text);
  const table = tableOfCounts(counts, WORD_COUNT_FLOOR);
  const path = join(dir, `${shardId}.nwc`);
  writeFileSync(path, encodeWordCounts(table));
  return { path, tokens: table.tokens, types: table.types };
}

export async function buildMemoryRelease(
  articles: readonly FixtureArticle[],
  options: FixtureOptions = {},
): Promise<OpenRelease> {
  const shardIds = [...new Set(articles.map((a) => a.shard))].sort();
  const rowsByYear = new Map<string, ArticleMetadata[]>();
  const shards: ShardHandle[] = [];
  for (const shardId of shardIds) {
    const year = shardId.slice(0, 4);
    const rows = rowsByYear.get(year) ?? [];
    rowsByYear.set(year, rows);
    const docs = articles.filter((a) => a.shard === shardId);
    const docBase = rows.length;
    for (const a of docs) rows.push({ ...EMPTY_METADATA, title: `${shardId} #${rows.length}`, ...a.meta });
    const reader = await buildShardInMemory(docs.map((a) => Buffer.from(a.text)));
    shards.push({
      shardId: shardId as ShardId,
      year,
      docBase,
      reader,
      wordCounts:
        options.wordCountsDir === undefined ? undefined : writeWordCounts(options.wordCountsDir, shardId, docs),
    });
  }
  const missing = new Set(options.missingYears ?? []);
  const stores = new Map([...rowsByYear].filter(([y]) => !missing.has(y)).map(([y, rows]) => [y, arrayStore(y, rows)]));
  const name = options.indexName ?? 'news';
  const index: ReleaseIndex = {
    name,
    shards,
    metadata: (year) => stores.get(year),
    hasCountryAttribution: options.hasCountryAttribution ?? true,
  };
  return {
    indexVersion: (options.indexVersion ?? 'test-v1') as IndexVersion,
    indexes: new Map([[name, index]]),
    close: () => shards.forEach((s) => s.reader.close()),
  };
}

/** Brute force: every (overlapping) byte occurrence of `query` in `text`, as byte offsets. */
export function bruteForceOffsets(text: string, query: string): number[] {
  const hay = Buffer.from(text);
  const needle = Buffer.from(query);
  const found: number[] = [];
  for (let at = hay.indexOf(needle); at !== -1 && needle.length > 0; at = hay.indexOf(needle, at + 1)) found.push(at);
  return found;
}
