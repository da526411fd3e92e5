import { PROFILE_COLUMNS } from './schema-v2.ts';

export { DOC_COLUMNS, PROFILE_COLUMNS, READ_COLUMNS, V2_READ_COLUMNS } from './schema-v2.ts';

/**
 * The per-year metadata store's SQLite format, version 3 (DESIGN.md in src/release/ says why each choice):
 * - `profiles`: each distinct combination of the fields that repeat per source, feed and topic, stored once (as in 2);
 * - `blocks`: the `docs` values of version 2 (doc-encoding.ts), BLOCK_ROWS rows per block in doc_ix order: block k
 *   holds doc_ix k × BLOCK_ROWS …, its rows' profile ids uncompressed (1, 2 or 4 bytes each, little-endian: a filter
 *   reads them without decompressing) and the rows (row-block.ts) as one zstd frame with the store's dictionary;
 * - `dictionary`: the zstd dictionary trained on the store's own blocks (one row; empty for small stores);
 * - `shards`: the doc_ix range of each shard (part);
 * - `meta` (format, format_version, year, doc_count, index_version, block_rows) and `PRAGMA user_version`.
 */
export const METADATA_STORE_FORMAT = 'news-metadata-store';
export const METADATA_STORE_FORMAT_VERSION = 3;
/** Every store version this build reads. */
export const READABLE_METADATA_STORE_FORMAT_VERSIONS: readonly number[] = [1, 2, 3];

/** Rows per block: measured on the real corpora (DESIGN.md), 32 keeps a block within one page and a page of 1,000 fast. */
export const BLOCK_ROWS = 16;

/** Page sizes with the share of a page that ~2 KB blocks leave unused, measured on the real corpora (DESIGN.md). */
const PAGE_WASTE: readonly (readonly [number, number])[] = [
  [4096, 0.41],
  [8192, 0.22],
  [16384, 0.11],
  [32768, 0.087],
];
/** Compressed bytes per article on the real corpora, profile ids included. */
const BYTES_PER_ARTICLE = 70;
/** Pages every store takes whatever its size: the schema and the first page of each table. */
const FIXED_PAGES = 6;

/**
 * The SQLite page size of a format-3 store of `docCount` articles (formats 1 and 2: 4,096): a small page wastes
 * its tail after the last block that fits, a large one costs a page per table even in a store of a few articles.
 * @example storePageBytes(30_230) // 16384
 */
export function storePageBytes(docCount: number): number {
  const cost = ([page, waste]: readonly [number, number]) =>
    docCount * BYTES_PER_ARTICLE * (1 + waste) + FIXED_PAGES * page;
  return PAGE_WASTE.reduce((best, p) => (cost(p) < cost(best) ? p : best))[0];
}

export const CREATE_STORE_SQL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE profiles (id INTEGER PRIMARY KEY, ${PROFILE_COLUMNS.map((c) => `${c} TEXT`).join(', ')});
CREATE TABLE blocks (block INTEGER PRIMARY KEY, profiles BLOB NOT NULL, bytes INTEGER NOT NULL, rows BLOB NOT NULL);
CREATE TABLE dictionary (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL);
CREATE TABLE shards (doc_base INTEGER PRIMARY KEY, doc_count INTEGER NOT NULL, shard_id TEXT NOT NULL);
PRAGMA user_version = ${METADATA_STORE_FORMAT_VERSION};
`;
