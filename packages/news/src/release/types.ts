import type { ShardReader } from '../shard/types.ts';

/** Identifies a shard: `YYYY-MM` for monthly shards, `YYYY` for yearly ones. */
export type ShardId = string & { readonly __brand: 'ShardId' };
/** A release identity, as given to `news build --index-version` and echoed as v2 `index_version`. */
export type IndexVersion = string & { readonly __brand: 'IndexVersion' };
/** Article number inside one crawl year, from 0, ordered by (month, input order). */
export type DocIx = number & { readonly __brand: 'DocIx' };

/** Every metadata field of one article (spec §2, v1 and v2). Absent values are null. */
export interface ArticleMetadata {
  readonly url: string | null;
  readonly title: string | null;
  readonly author: string | null;
  readonly sitename: string | null;
  readonly hostname: string | null;
  readonly warc_source: string | null;
  readonly warc_record_id: string | null;
  readonly warc_date: string | null;
  readonly publish_date: string | null;
  /** v1's `date`: the publish date when known, else the crawl date. */
  readonly date: string | null;
  readonly date_source: string | null;
  readonly language: string | null;
  readonly lang: string | null;
  readonly country_tld: string | null;
  readonly country: string | null;
  readonly country_source: string | null;
  readonly country_confidence: string | null;
  readonly iptc_topic: string | null;
  /** Classification scores where the input carries them (e.g. `{"iptc_topic": 0.91}`), else null. */
  readonly scores: Readonly<Record<string, number>> | null;
  /** xxHash64 (seed 0) of the article's UTF-8 bytes, unsigned decimal string. */
  readonly text_xxhash64: string;
}

/** The metadata fields a v2 filter compares. */
export type FilterableField = 'language' | 'lang' | 'iptc_topic' | 'hostname' | 'sitename' | 'country';

export interface MetadataStore {
  readonly year: string;
  readonly docCount: number;
  /** Metadata of one article; undefined when docIx is outside [0, docCount). */
  get(docIx: number): ArticleMetadata | undefined;
  /** Metadata of many articles, in the order asked. */
  getMany(docIxs: readonly number[]): (ArticleMetadata | undefined)[];
  /** Whether any article has a non-empty value in this field (what info's filter support rests on). */
  hasValues(field: FilterableField): boolean;
  close(): void;
}

export interface ShardHandle {
  readonly shardId: ShardId;
  readonly year: string;
  /** doc_ix of this shard's first article within its year. */
  readonly docBase: number;
  readonly reader: ShardReader;
}

export interface ReleaseIndex {
  readonly name: string;
  /** In chronological order. */
  readonly shards: readonly ShardHandle[];
  /** Per-year store; undefined when the year has no store (a 503 for v2 metadata). */
  metadata(year: string): MetadataStore | undefined;
  /** True when the release carries a country attribution table. */
  readonly hasCountryAttribution: boolean;
  /** Every shard of the manifest, served or not (chronological); absent means `shards` is the whole set. */
  readonly releaseShards?: readonly { readonly shardId: ShardId; readonly year: string }[];
}

export interface OpenRelease {
  readonly indexVersion: IndexVersion;
  readonly indexes: ReadonlyMap<string, ReleaseIndex>;
  close(): void;
}
