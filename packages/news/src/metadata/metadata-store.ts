import Database from 'better-sqlite3';
import type { ArticleMetadata, FilterableField, FilterFields, MetadataStore } from './types.ts';
import { decodeArticle, type ProfileValues, type V2Row } from './doc-encoding.ts';
import { rowToMetadata, type Row } from './row-to-metadata.ts';
import {
  METADATA_STORE_FORMAT,
  PROFILE_COLUMNS,
  READABLE_METADATA_STORE_FORMAT_VERSIONS,
  READ_COLUMNS,
  V2_READ_COLUMNS,
} from './schema.ts';
import { blockRows } from './block-reader.ts';

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

/**
 * Opens a per-year metadata store (format version 1, 2 or 3) read-only, checking format, version, year, count and release.
 * @example const store = openMetadataStore('…/metadata/2024.sqlite', { year: '2024' }); store.get(0)?.title
 */
export function openMetadataStore(path: string, options: OpenMetadataStoreOptions): MetadataStore {
  let db: Database.Database;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw new MetadataStoreError(
      `metadata store ${path} cannot be opened (${(e as Error).message}); rebuild the release with news build`,
    );
  }
  const fail = (problem: string) =>
    new MetadataStoreError(`metadata store ${path} ${problem}; rebuild the release with news build`);
  let version: unknown;
  let meta: Map<string, string>;
  let reader: RowReader;
  try {
    meta = readMeta(db, path);
    version = db.pragma('user_version', { simple: true });
    const problem =
      meta.get('format') !== METADATA_STORE_FORMAT
        ? `is not a ${METADATA_STORE_FORMAT} file`
        : !READABLE_METADATA_STORE_FORMAT_VERSIONS.includes(version as number) ||
            meta.get('format_version') !== String(version)
          ? `has format version ${String(version)}, this build reads ${READABLE_METADATA_STORE_FORMAT_VERSIONS.join(', ')}`
          : meta.get('year') !== options.year
            ? `holds year ${meta.get('year') ?? '?'}, expected ${options.year}`
            : options.docCount !== undefined && meta.get('doc_count') !== String(options.docCount)
              ? `holds ${meta.get('doc_count') ?? '?'} articles, the manifest says ${options.docCount}`
              : options.indexVersion !== undefined && meta.get('index_version') !== options.indexVersion
                ? `belongs to release ${meta.get('index_version') ?? '?'}, expected ${options.indexVersion}`
                : undefined;
    if (problem) throw fail(problem);
    reader =
      version === 3
        ? blockReader(db, docCount(meta), meta.get('block_rows'), fail)
        : sqlRowReader(db, docCount(meta), version === 1, fail);
  } catch (e) {
    db.close();
    throw e;
  }
  // Answered once per field: a field empty in every row costs one scan of the table, later asks are free.
  const filled = new Map<FilterableField, boolean>();
  // v2 and v3 keep every filterable field in `profiles`, a few rows per source.
  const fieldTable = version === 1 ? 'articles' : 'profiles';
  const hasValues = (field: FilterableField): boolean => {
    let known = filled.get(field);
    if (known === undefined) {
      known =
        db
          .prepare(`SELECT EXISTS (SELECT 1 FROM ${fieldTable} WHERE ${field} IS NOT NULL AND ${field} <> '')`)
          .pluck()
          .get() === 1;
      filled.set(field, known);
    }
    return known;
  };
  return {
    year: options.year,
    docCount: docCount(meta),
    get: reader.get,
    filterFields: reader.filterFields,
    getMany: reader.getMany,
    hasValues,
    close: () => db.close(),
  };
}

function readMeta(db: Database.Database, path: string): Map<string, string> {
  try {
    const rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
    return new Map(rows.map((r) => [r.key, r.value]));
  } catch (e) {
    throw new MetadataStoreError(
      `metadata store ${path} is not a readable metadata store (${(e as Error).message}); rebuild the release with news build`,
    );
  }
}

type RowReader = Pick<MetadataStore, 'get' | 'getMany' | 'filterFields'>;

const docCount = (meta: Map<string, string>): number => Number(meta.get('doc_count'));
const validDocIx =
  (count: number) =>
  (docIx: number): boolean =>
    Number.isInteger(docIx) && docIx >= 0 && docIx < count;

/** Format 3: rows from compressed blocks; a page is read in doc_ix order so each block is decompressed once. */
function blockReader(
  db: Database.Database,
  docCount: number,
  blockRowsMeta: string | undefined,
  fail: (problem: string) => Error,
): RowReader {
  const valid = validDocIx(docCount);
  const profileOf = cachedProfiles(db, fail);
  const rows = blockRows(db, docCount, blockRowsMeta, profileOf, fail);
  const get = (docIx: number) => (valid(docIx) ? rows.get(docIx) : undefined);
  // One object per profile (a few per source), so a filtered scan allocates nothing per document.
  const fieldsById = new Map<number, FilterFields>();
  const filterFields = (docIx: number): FilterFields | undefined => {
    if (!valid(docIx)) return undefined;
    const id = rows.profileIdOf(docIx);
    let fields = fieldsById.get(id);
    if (fields === undefined) {
      const values = profileOf(id);
      const at = (c: (typeof PROFILE_COLUMNS)[number]) => values[PROFILE_COLUMNS.indexOf(c)] ?? null;
      fields = {
        language: at('language'),
        lang: at('lang'),
        iptc_topic: at('iptc_topic'),
        hostname: at('hostname'),
        sitename: at('sitename'),
        country: at('country'),
      };
      if (fieldsById.size >= 100_000) fieldsById.clear();
      fieldsById.set(id, fields);
    }
    return fields;
  };
  const getMany = (docIxs: readonly number[]) => {
    const wanted = [...new Set(docIxs.filter(valid))].sort((a, b) => a - b);
    const byIx = new Map<number, ArticleMetadata>();
    rows.getSorted(wanted).forEach((m, i) => byIx.set(wanted[i]!, m));
    return docIxs.map((d) => byIx.get(d));
  };
  return { get, getMany, filterFields };
}

/**
 * Formats 1 and 2: one SQLite row per article. Rows come back as arrays: building keyed row objects cost more than
 * the lookups. v2 rows are decoded in JS with their profiles cached (the `articles` view decodes in SQL too, for
 * sqlite3 users, but through it, or with a JOIN per row, a page of 1,000 took 1.4-1.5x the v1 read: 12 new profile
 * strings per row).
 */
function sqlRowReader(
  db: Database.Database,
  docCount: number,
  v1: boolean,
  fail: (problem: string) => Error,
): RowReader {
  const valid = validDocIx(docCount);
  const columns = v1 ? READ_COLUMNS.join(', ') : V2_READ_COLUMNS.join(', ');
  const from = v1 ? 'articles d' : 'docs d';
  const profileOf = v1 ? undefined : cachedProfiles(db, fail);
  const decode =
    profileOf === undefined
      ? (r: unknown[]) => rowToMetadata(r as Row)
      : (r: unknown[]) => decodeArticle(profileOf(r[0] as number), r as V2Row);
  const docIxColumn = v1 ? READ_COLUMNS.length : V2_READ_COLUMNS.length;
  const select = db.prepare(`SELECT ${columns} FROM ${from} WHERE d.doc_ix = ?`).raw(true);
  // A page of documents asks for up to 1,000 rows: one statement over a JSON list of ids is ~4x faster than 1,000 gets.
  const selectMany = db
    .prepare(
      `SELECT ${columns}, d.doc_ix FROM ${from}
    WHERE d.doc_ix IN (SELECT value FROM json_each(?))`,
    )
    .raw(true);
  const get = (docIx: number): ArticleMetadata | undefined => {
    if (!valid(docIx)) return undefined;
    const row = select.get(docIx) as unknown[] | undefined;
    return row ? decode(row) : undefined;
  };
  const getMany = (docIxs: readonly number[]): (ArticleMetadata | undefined)[] => {
    const wanted = docIxs.filter(valid);
    if (wanted.length < 4) return docIxs.map(get);
    const byIx = new Map<number, ArticleMetadata>();
    for (const row of selectMany.all(JSON.stringify(wanted)) as unknown[][])
      byIx.set(row[docIxColumn] as number, decode(row));
    return docIxs.map((d) => byIx.get(d));
  };
  // Formats 1 and 2 read a row per document either way.
  return { get, getMany, filterFields: get };
}

/** Profile values by id, read once each (a year holds a few per source); cleared when large, to bound memory. */
function cachedProfiles(db: Database.Database, fail: (problem: string) => Error): (id: number) => ProfileValues {
  const select = db.prepare(`SELECT ${PROFILE_COLUMNS.join(', ')} FROM profiles WHERE id = ?`).raw(true);
  const cache = new Map<number, ProfileValues>();
  return (id) => {
    let values = cache.get(id);
    if (values === undefined) {
      if (cache.size >= 100_000) cache.clear();
      values = select.get(id) as ProfileValues | undefined;
      if (values === undefined) throw fail(`has no profile ${id}`);
      cache.set(id, values);
    }
    return values;
  };
}
