/**
 * The per-year metadata store's SQLite format. Version 1: one `articles` row per doc_ix, a `meta` key/value table
 * (format, format_version, year, doc_count, index_version), and `PRAGMA user_version` = the format version.
 */
export const METADATA_STORE_FORMAT = 'news-metadata-store';
export const METADATA_STORE_FORMAT_VERSION = 1;

/** Columns of `articles` after doc_ix, in order: every v1 and v2 field of ArticleMetadata. */
export const ARTICLE_COLUMNS = [
  'url', 'title', 'author', 'sitename', 'hostname', 'warc_source', 'warc_record_id', 'warc_date', 'publish_date', 'date',
  'date_source', 'language', 'lang', 'country_tld', 'country', 'country_source', 'country_confidence', 'iptc_topic',
  'scores', 'text_xxhash64', 'text_bytes', 'shard_id',
] as const;

const columnDefs = ARTICLE_COLUMNS.map((c) => {
  if (c === 'text_xxhash64' || c === 'shard_id') return `${c} TEXT NOT NULL`;
  if (c === 'text_bytes') return `${c} INTEGER NOT NULL`;
  // scores: JSON text of {name: number}, or NULL.
  return `${c} TEXT`;
});

export const CREATE_STORE_SQL = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE articles (doc_ix INTEGER PRIMARY KEY, ${columnDefs.join(', ')});
PRAGMA user_version = ${METADATA_STORE_FORMAT_VERSION};
`;

/** Staging rows are keyed by (month, shard-local doc) because doc_ix is known only once every month is counted. */
export const CREATE_STAGING_SQL = `
CREATE TABLE staging (month INTEGER NOT NULL, local_doc INTEGER NOT NULL, ${columnDefs.join(', ')},
  PRIMARY KEY (month, local_doc)) WITHOUT ROWID;
`;
