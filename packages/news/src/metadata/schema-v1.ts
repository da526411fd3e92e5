/**
 * Version 1 of the per-year metadata store (kept to read releases built before version 2, and as the staging
 * layout): one `articles` row per doc_ix with every field as text, a `meta` key/value table (format, format_version,
 * year, doc_count, index_version), and `PRAGMA user_version` = 1.
 */
export const METADATA_STORE_FORMAT_V1 = 1;

/** Columns of v1 `articles` after doc_ix, in order: every v1 and v2 field of ArticleMetadata. */
export const ARTICLE_COLUMNS = [
  'url',
  'title',
  'author',
  'sitename',
  'hostname',
  'warc_source',
  'warc_record_id',
  'warc_date',
  'publish_date',
  'date',
  'date_source',
  'language',
  'lang',
  'country_tld',
  'country',
  'country_source',
  'country_confidence',
  'iptc_topic',
  'scores',
  'text_xxhash64',
  'text_bytes',
  'shard_id',
] as const;

const columnDefs = ARTICLE_COLUMNS.map((c) => {
  if (c === 'text_xxhash64' || c === 'shard_id') return `${c} TEXT NOT NULL`;
  if (c === 'text_bytes') return `${c} INTEGER NOT NULL`;
  // scores: JSON text of {name: number}, or NULL.
  return `${c} TEXT`;
});

/** The v1 store's tables (what the v1 writer created; tests write v1 stores with it). */
export const CREATE_STORE_V1_SQL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE articles (doc_ix INTEGER PRIMARY KEY, ${columnDefs.join(', ')});
PRAGMA user_version = ${METADATA_STORE_FORMAT_V1};
`;

/** Staging rows are keyed by (month, shard-local doc) because doc_ix is known only once every month is counted. */
export const CREATE_STAGING_SQL = `
CREATE TABLE staging (month INTEGER NOT NULL, local_doc INTEGER NOT NULL, ${columnDefs.join(', ')},
  PRIMARY KEY (month, local_doc)) WITHOUT ROWID;
`;
