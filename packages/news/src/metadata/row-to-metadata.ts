import type { ArticleMetadata } from './types.ts';
import { READ_COLUMNS } from './schema.ts';

/** A row as better-sqlite3 returns it in raw mode: the READ_COLUMNS values in order (then doc_ix, for getMany). */
export type Row = (string | number | bigint | null)[];

const COL = Object.fromEntries(READ_COLUMNS.map((c, i) => [c, i])) as Record<(typeof READ_COLUMNS)[number], number>;

/** The metadata of one `articles` row (v1 table, v2 view or the staging table) selected as READ_COLUMNS. */
export function rowToMetadata(r: Row): ArticleMetadata {
  const s = (c: keyof typeof COL): string | null => (r[COL[c]] === null ? null : String(r[COL[c]]));
  return {
    url: s('url'),
    title: s('title'),
    author: s('author'),
    sitename: s('sitename'),
    hostname: s('hostname'),
    warc_source: s('warc_source'),
    warc_record_id: s('warc_record_id'),
    warc_date: s('warc_date'),
    publish_date: s('publish_date'),
    date: s('date'),
    date_source: s('date_source'),
    language: s('language'),
    lang: s('lang'),
    country_tld: s('country_tld'),
    country: s('country'),
    country_source: s('country_source'),
    country_confidence: s('country_confidence'),
    iptc_topic: s('iptc_topic'),
    scores: r[COL.scores] === null ? null : (JSON.parse(String(r[COL.scores])) as Record<string, number>),
    text_xxhash64: String(r[COL.text_xxhash64]),
  };
}
