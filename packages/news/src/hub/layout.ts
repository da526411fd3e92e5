/**
 * The dataset-hub layout written by `news publish-hub` and read by the retrieval recipe (see DESIGN.md).
 * Both JSON files carry `format` and `format_version`; readers refuse anything else.
 */
export const HUB_FORMAT = 'news-hub';
export const HUB_FORMAT_VERSION = 1;
/** The publication's release identity. */
export const HUB_RELEASE_FILE = 'hub-release.json';
/** The shard manifest: rows per shard, year and partition. */
export const HUB_MANIFEST_FILE = 'shards.json';
/** Rows per Parquet partition: small enough that the recipe downloads little for a few articles. */
export const DEFAULT_PARTITION_ROWS = 5000;

/** Columns of every partition, in order: position, all metadata (strings, nullable), then the text. */
export const HUB_COLUMNS = [
  'year',
  'doc_ix',
  'shard_id',
  'warc_record_id',
  'text_xxhash64',
  'url',
  'title',
  'author',
  'sitename',
  'hostname',
  'warc_source',
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
  'text',
] as const;

export type HubColumn = (typeof HUB_COLUMNS)[number];

/** `data/<index>/year=<year>/part-<k>.parquet` (Hive-style, so hub tools see `year` as a partition key). */
export function partitionPath(index: string, year: string, k: number): string {
  return `data/${index}/year=${year}/part-${String(k).padStart(5, '0')}.parquet`;
}

export interface HubRelease {
  readonly format: typeof HUB_FORMAT;
  readonly format_version: typeof HUB_FORMAT_VERSION;
  readonly index_version: string;
  readonly index: string;
  /** How `text_xxhash64` is computed, so a reader can recompute it from `text`. */
  readonly text_hash: 'xxhash64, seed 0, over the UTF-8 bytes of text, unsigned decimal string';
  readonly total_rows: number;
}

export interface HubPartition {
  readonly path: string;
  /** doc_ix of the partition's first row; row i holds doc_ix first_doc_ix + i. */
  readonly first_doc_ix: number;
  readonly rows: number;
  readonly bytes: number;
  readonly sha256: string;
}

export interface HubManifest {
  readonly format: typeof HUB_FORMAT;
  readonly format_version: typeof HUB_FORMAT_VERSION;
  readonly index_version: string;
  readonly index: string;
  readonly total_rows: number;
  /** In chronological order, as the release's shards. */
  readonly shards: readonly {
    readonly shard_id: string;
    readonly year: string;
    readonly first_doc_ix: number;
    readonly rows: number;
  }[];
  readonly years: readonly {
    readonly year: string;
    readonly rows: number;
    readonly partitions: readonly HubPartition[];
  }[];
}

export class HubFormatError extends Error {
  override readonly name = 'HubFormatError';
}

/**
 * Checks a parsed shard manifest: format and version, and that the row counts agree (shards, years and partitions
 * each sum to `total_rows`; partitions tile each year from doc_ix 0 without gaps).
 */
export function checkHubManifest(value: unknown): HubManifest {
  const m = value as HubManifest;
  if (m?.format !== HUB_FORMAT || m.format_version !== HUB_FORMAT_VERSION) {
    throw new HubFormatError(
      `not a ${HUB_FORMAT} v${HUB_FORMAT_VERSION} manifest (format ${JSON.stringify(m?.format)}, version ${JSON.stringify(m?.format_version)})`,
    );
  }
  const shardRows = m.shards.reduce((n, s) => n + s.rows, 0);
  const yearRows = m.years.reduce((n, y) => n + y.rows, 0);
  if (shardRows !== m.total_rows || yearRows !== m.total_rows) {
    throw new HubFormatError(`row counts disagree: total ${m.total_rows}, shards ${shardRows}, years ${yearRows}`);
  }
  for (const y of m.years) {
    let next = 0;
    for (const p of y.partitions) {
      if (p.first_doc_ix !== next)
        throw new HubFormatError(
          `year ${y.year}: partition ${p.path} starts at doc_ix ${p.first_doc_ix}, expected ${next}`,
        );
      next += p.rows;
    }
    if (next !== y.rows) throw new HubFormatError(`year ${y.year}: partitions hold ${next} rows, the year ${y.rows}`);
  }
  return m;
}
