import Database from 'better-sqlite3';
import type { ArticleMetadata, FilterableField, MetadataStore } from '../release/types.ts';
import { ARTICLE_COLUMNS, METADATA_STORE_FORMAT, METADATA_STORE_FORMAT_VERSION } from './schema.ts';

/** A metadata store that cannot be used as it is; the message names the file and what to do. */
export class MetadataStoreError extends Error {
  override readonly name = 'MetadataStoreError';
}

export interface OpenMetadataStoreOptions {
  readonly year: string;
  /** The article count the release manifest promises for this year. */
  readonly docCount?: number;
  readonly indexVersion?: string;
}

/** A row as better-sqlite3 returns it in raw mode: the ARTICLE_COLUMNS values in order (then doc_ix, for getMany). */
type Row = (string | number | bigint | null)[];
const COL = Object.fromEntries(ARTICLE_COLUMNS.map((c, i) => [c, i])) as Record<(typeof ARTICLE_COLUMNS)[number], number>;
const DOC_IX = ARTICLE_COLUMNS.length;

/**
 * Opens a per-year metadata store read-only, checking format, version, year, count and release.
 * @example const store = openMetadataStore('…/metadata/2024.sqlite', { year: '2024' }); store.get(0)?.title
 */
export function openMetadataStore(path: string, options: OpenMetadataStoreOptions): MetadataStore {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new MetadataStoreError(`metadata store ${path} cannot be opened (${(e as Error).message}); rebuild the release with news build`);
  }
  try {
    const meta = readMeta(db, path);
    const version = db.pragma('user_version', { simple: true });
    const problem =
      meta.get('format') !== METADATA_STORE_FORMAT ? `is not a ${METADATA_STORE_FORMAT} file`
      : version !== METADATA_STORE_FORMAT_VERSION || meta.get('format_version') !== String(METADATA_STORE_FORMAT_VERSION)
        ? `has format version ${String(version)}, this build reads ${METADATA_STORE_FORMAT_VERSION}`
      : meta.get('year') !== options.year ? `holds year ${meta.get('year') ?? '?'}, expected ${options.year}`
      : options.docCount !== undefined && meta.get('doc_count') !== String(options.docCount)
        ? `holds ${meta.get('doc_count') ?? '?'} articles, the manifest says ${options.docCount}`
      : options.indexVersion !== undefined && meta.get('index_version') !== options.indexVersion
        ? `belongs to release ${meta.get('index_version') ?? '?'}, expected ${options.indexVersion}`
      : undefined;
    if (problem) throw new MetadataStoreError(`metadata store ${path} ${problem}; rebuild the release with news build`);
  } catch (e) {
    db.close();
    throw e;
  }
  const docCount = Number(db.prepare("SELECT value FROM meta WHERE key = 'doc_count'").pluck().get());
  // Rows come back as arrays in ARTICLE_COLUMNS order: building keyed row objects cost more than the lookups.
  const select = db.prepare(`SELECT ${ARTICLE_COLUMNS.join(', ')} FROM articles WHERE doc_ix = ?`).raw(true);
  // A page of documents asks for up to 1,000 rows: one statement over a JSON list of ids is ~4x faster than 1,000 gets.
  const selectMany = db.prepare(`SELECT ${ARTICLE_COLUMNS.join(', ')}, doc_ix FROM articles
    WHERE doc_ix IN (SELECT value FROM json_each(?))`).raw(true);
  const valid = (docIx: number) => Number.isInteger(docIx) && docIx >= 0 && docIx < docCount;
  const get = (docIx: number): ArticleMetadata | undefined => {
    if (!valid(docIx)) return undefined;
    const row = select.get(docIx) as Row | undefined;
    return row ? toMetadata(row) : undefined;
  };
  const getMany = (docIxs: readonly number[]): (ArticleMetadata | undefined)[] => {
    const wanted = docIxs.filter(valid);
    if (wanted.length < 4) return docIxs.map(get);
    const byIx = new Map<number, ArticleMetadata>();
    for (const row of selectMany.all(JSON.stringify(wanted)) as Row[]) byIx.set(row[DOC_IX] as number, toMetadata(row));
    return docIxs.map((d) => byIx.get(d));
  };
  // Answered once per field: a field empty in every row costs one scan of the table, later asks are free.
  const filled = new Map<FilterableField, boolean>();
  const hasValues = (field: FilterableField): boolean => {
    let known = filled.get(field);
    if (known === undefined) {
      known = db.prepare(`SELECT EXISTS (SELECT 1 FROM articles WHERE ${field} IS NOT NULL AND ${field} <> '')`).pluck().get() === 1;
      filled.set(field, known);
    }
    return known;
  };
  return {
    year: options.year,
    docCount,
    get,
    getMany,
    hasValues,
    close: () => db.close(),
  };
}

function readMeta(db: Database.Database, path: string): Map<string, string> {
  try {
    const rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
    return new Map(rows.map((r) => [r.key, r.value]));
  } catch (e) {
    throw new MetadataStoreError(`metadata store ${path} is not a readable metadata store (${(e as Error).message}); rebuild the release with news build`);
  }
}

function toMetadata(r: Row): ArticleMetadata {
  const s = (c: keyof typeof COL): string | null => (r[COL[c]] === null ? null : String(r[COL[c]]));
  return {
    url: s('url'), title: s('title'), author: s('author'), sitename: s('sitename'), hostname: s('hostname'),
    warc_source: s('warc_source'), warc_record_id: s('warc_record_id'), warc_date: s('warc_date'),
    publish_date: s('publish_date'), date: s('date'), date_source: s('date_source'), language: s('language'),
    lang: s('lang'), country_tld: s('country_tld'), country: s('country'), country_source: s('country_source'),
    country_confidence: s('country_confidence'), iptc_topic: s('iptc_topic'),
    scores: r[COL.scores] === null ? null : (JSON.parse(String(r[COL.scores])) as Record<string, number>),
    text_xxhash64: String(r[COL.text_xxhash64]),
  };
}
