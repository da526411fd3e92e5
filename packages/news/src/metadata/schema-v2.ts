import { dateSql } from './date-encoding.ts';
import { ARTICLE_COLUMNS } from './schema-v1.ts';

/**
 * Version 2 of the per-year metadata store (kept to read releases built before version 3; DESIGN.md in src/release/
 * says why each choice):
 * - `profiles`: each distinct combination of the fields that repeat per source, feed and topic, stored once;
 * - `docs`: one row per doc_ix with only what differs per article, in compact encodings (url without its profile's
 *   `scheme://host` prefix, WARC record id as 16 bytes, dates as two integers (date-encoding.ts), xxHash64 as a
 *   signed 64-bit integer, publish_date 0 without form when it equals warc_date, `date` not stored: it is
 *   publish_date ?? warc_date);
 * - `shards`: the doc_ix range of each shard (part), instead of a shard id in every row;
 * - `articles`: a view that decodes all of it into the v1 columns, so readers (and `sqlite3` users) read both
 *   versions with the same SELECT;
 * - `meta` (format, format_version, year, doc_count, index_version) and `PRAGMA user_version` as in version 1.
 */
export const METADATA_STORE_FORMAT_V2 = 2;

/** The fields that repeat per source, feed and topic: one `profiles` row per distinct combination (formats 2 and 3). */
export const PROFILE_COLUMNS = [
  'sitename',
  'hostname',
  'url_prefix',
  'language',
  'lang',
  'country_tld',
  'country',
  'country_source',
  'country_confidence',
  'date_source',
  'warc_source',
  'iptc_topic',
] as const;

/** Columns of `docs` after doc_ix (format 3: the values of a row in a block); the mostly-null ones last. */
export const DOC_COLUMNS = [
  'profile',
  'title',
  'url',
  'warc_record_id',
  'warc_date',
  'warc_form',
  'publish_date',
  'publish_form',
  'text_xxhash64',
  'author',
  'scores',
] as const;

/** What the v2 reader selects from `docs` (the profile id, then the rest); doc-encoding.ts decodes it in this order. */
export const V2_READ_COLUMNS = DOC_COLUMNS.map((c) =>
  c === 'text_xxhash64' ? "printf('%llu', d.text_xxhash64)" : `d.${c}`,
);

/** The v1 columns the reader selects from the `articles` table (v1) or view (v2). */
export const READ_COLUMNS = ARTICLE_COLUMNS.filter((c) => c !== 'text_bytes' && c !== 'shard_id');

// 16 record-id bytes back to `<urn:uuid:8-4-4-4-12>` (lower-case hex, as written).
const hexPart = (from: number, n: number) => `lower(substr(hex(d.warc_record_id), ${from}, ${n}))`;
const RECORD_ID_SQL = `CASE WHEN typeof(d.warc_record_id) = 'blob' THEN '<urn:uuid:' || ${hexPart(1, 8)} || '-' || ${hexPart(9, 4)}
  || '-' || ${hexPart(13, 4)} || '-' || ${hexPart(17, 4)} || '-' || ${hexPart(21, 12)} || '>' ELSE d.warc_record_id END`;
const WARC_SQL = dateSql('d.warc_date', 'd.warc_form');
const PUBLISH_SQL = `CASE WHEN d.publish_form IS NULL AND d.publish_date = 0 THEN ${WARC_SQL} ELSE ${dateSql('d.publish_date', 'd.publish_form')} END`;

/** The v2 store's tables (what the v2 writer created; tests write v2 stores with it). */
export const CREATE_STORE_V2_SQL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE profiles (id INTEGER PRIMARY KEY, ${PROFILE_COLUMNS.map((c) => `${c} TEXT`).join(', ')});
-- warc_record_id and the dates have no declared type: no affinity, so blobs, integers and any text stay as written.
CREATE TABLE docs (doc_ix INTEGER PRIMARY KEY, profile INTEGER NOT NULL, title TEXT, url TEXT, warc_record_id,
  warc_date, warc_form INTEGER, publish_date, publish_form INTEGER, text_xxhash64 INTEGER NOT NULL, author TEXT, scores TEXT);
CREATE TABLE shards (doc_base INTEGER PRIMARY KEY, doc_count INTEGER NOT NULL, shard_id TEXT NOT NULL);
CREATE VIEW articles AS SELECT d.doc_ix AS doc_ix,
  CASE WHEN p.url_prefix IS NULL THEN d.url ELSE p.url_prefix || d.url END AS url, d.title AS title, d.author AS author,
  p.sitename AS sitename, p.hostname AS hostname, p.warc_source AS warc_source, ${RECORD_ID_SQL} AS warc_record_id,
  ${WARC_SQL} AS warc_date, ${PUBLISH_SQL} AS publish_date, coalesce(${PUBLISH_SQL}, ${WARC_SQL}) AS date,
  p.date_source AS date_source, p.language AS language, p.lang AS lang, p.country_tld AS country_tld,
  p.country AS country, p.country_source AS country_source, p.country_confidence AS country_confidence,
  p.iptc_topic AS iptc_topic, d.scores AS scores, printf('%llu', d.text_xxhash64) AS text_xxhash64,
  (SELECT s.shard_id FROM shards s WHERE s.doc_base <= d.doc_ix ORDER BY s.doc_base DESC LIMIT 1) AS shard_id
  FROM docs d JOIN profiles p ON p.id = d.profile;
PRAGMA user_version = ${METADATA_STORE_FORMAT_V2};
`;
