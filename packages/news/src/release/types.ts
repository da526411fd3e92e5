import type { MetadataStore } from '../metadata/types.ts';
import type { ShardReader } from '../shard/types.ts';
import type { StoryTable } from '../stories/index.ts';

/** Identifies a shard: `YYYY-MM` for monthly shards, `YYYY` for yearly ones. */
export type ShardId = string & { readonly __brand: 'ShardId' };
/** A release identity, as given to `news build --index-version` and echoed as v2 `index_version`. */
export type IndexVersion = string & { readonly __brand: 'IndexVersion' };
/** Article number inside one crawl year, from 0, ordered by (month, input order). */
export type DocIx = number & { readonly __brand: 'DocIx' };

// The metadata shapes belong to the metadata store (release depends on metadata, never the reverse).
export type { ArticleMetadata, FilterableField, FilterFields, MetadataStore } from '../metadata/types.ts';

export interface ShardHandle {
  readonly shardId: ShardId;
  readonly year: string;
  /** doc_ix of this shard's first article within its year. */
  readonly docBase: number;
  readonly reader: ShardReader;
  /** Its headline index (article d's title is its document d); absent when the release was built without one. */
  readonly titles?: ShardReader | undefined;
  /** Its word-count table (word-counts/format.ts), read on first use; absent in a release built before them. */
  readonly wordCounts?: ShardWordCountsRef | undefined;
}

/** Where a shard's word-count table is, and its totals (from the manifest, so totals need no read). */
export interface ShardWordCountsRef {
  readonly path: string;
  readonly tokens: number;
  readonly types: number;
}

export interface ReleaseIndex {
  readonly name: string;
  /** In chronological order. */
  readonly shards: readonly ShardHandle[];
  /** Per-year store; undefined when the year has no store (a 503 for v2 metadata). */
  metadata(year: string): MetadataStore | undefined;
  /** True when the release carries a country attribution table. */
  readonly hasCountryAttribution: boolean;
  /** Each article's story across the release; undefined when the release was built without story files. */
  readonly stories?: StoryTable | undefined;
  /** Every shard of the manifest, served or not (chronological); absent means `shards` is the whole set. */
  readonly releaseShards?: readonly { readonly shardId: ShardId; readonly year: string }[];
}

export interface OpenRelease {
  readonly indexVersion: IndexVersion;
  readonly indexes: ReadonlyMap<string, ReleaseIndex>;
  close(): void;
}
