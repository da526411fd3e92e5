/**
 * Request and response shapes of the v2 domain layer. They are the wire shapes of the public API (snake_case),
 * so the worker can pass them through the protocol and the gateway can answer them unchanged.
 * Requests arrive here already validated at the gateway edge (types and bounds of single fields);
 * cross-field and release-dependent rules (rank ranges, years, references) are checked here.
 */
import type { ArticleMetadata } from '../release/types.ts';
import type { Span } from '../shard/types.ts';

export interface FindRequest {
  readonly index: string;
  readonly query: string;
  readonly year_min?: number | null;
  readonly year_max?: number | null;
}

export interface FindResult {
  readonly index_version: string;
  readonly total_occurrences: number;
  /** Half-open rank intervals, aligned by position with shard_ids and shard_years. */
  readonly segment_by_shard: readonly (readonly [number, number])[];
  readonly shard_ids: readonly string[];
  readonly shard_years: readonly string[];
}

export interface CountResult {
  readonly index_version: string;
  readonly count: number;
}

/** Fields every continuation carries. */
export interface ContinuationRequest {
  readonly index: string;
  readonly expected_index_version: string;
}

export interface RankRangeRequest extends ContinuationRequest {
  readonly shard_id: string;
  readonly rank_from: number;
  readonly rank_to: number;
  /** When given, [rank_from, rank_to) must lie inside this query's interval. */
  readonly query?: string | null;
}

export interface Occurrence {
  readonly rank: number;
  readonly year: string;
  readonly doc_ix: number;
  /** Byte offset of the match in the article. */
  readonly offset: number;
}

export interface OccurrencesResult {
  readonly index_version: string;
  readonly shard_id: string;
  readonly rank_from: number;
  readonly rank_to: number;
  readonly page_occurrences: number;
  readonly occurrences: readonly Occurrence[];
}

export interface DocumentFilters {
  readonly languages?: readonly string[] | null;
  readonly commonlingua_languages?: readonly string[] | null;
  readonly topics?: readonly string[] | null;
  readonly sources?: readonly string[] | null;
  readonly countries?: readonly string[] | null;
}

export interface DocumentsRequest extends RankRangeRequest, DocumentFilters {}

export interface DocumentRecord {
  readonly year: string;
  readonly doc_ix: number;
  /** Occurrences of this document on this page. */
  readonly occurrences: number;
  readonly first_rank: number;
  readonly metadata: ArticleMetadata;
}

export interface DocumentsResult {
  readonly index_version: string;
  readonly shard_id: string;
  readonly rank_from: number;
  readonly rank_to: number;
  readonly page_occurrences: number;
  readonly page_distinct_documents: number;
  readonly page_matching_documents: number;
  readonly page_matching_occurrences: number;
  /** Matching documents in order of first rank. */
  readonly documents: readonly DocumentRecord[];
}

export interface DocumentRef {
  readonly year: string;
  readonly doc_ix: number;
}

export interface MetadataRequest extends ContinuationRequest {
  readonly documents: readonly DocumentRef[];
}

export interface MetadataResult {
  readonly index_version: string;
  readonly documents: readonly { readonly year: string; readonly doc_ix: number; readonly metadata: ArticleMetadata }[];
}

export interface GetDocRequest extends ContinuationRequest {
  readonly query: string;
  readonly shard_id: string;
  readonly rank: number;
  /** Context bytes on each side of the match; default 1000. */
  readonly max_ctx_len?: number | null;
  /** The whole article (≤ 1 MiB) instead of a window; default false. */
  readonly full_text?: boolean | null;
}

export interface GetDocResult {
  readonly index_version: string;
  readonly year: string;
  readonly shard_id: string;
  readonly rank: number;
  readonly doc_ix: number;
  /** Bytes of the whole article. */
  readonly doc_len: number;
  /** Bytes of `text`. */
  readonly disp_len: number;
  /** Byte offset of the match inside `text`. */
  readonly needle_offset: number;
  readonly text: string;
  readonly spans: readonly Span[];
  readonly metadata: ArticleMetadata;
}

export interface ShardInfo {
  readonly shard_id: string;
  readonly year: string;
  readonly documents: number;
  /** Indexed text bytes, separators included. */
  readonly bytes: number;
}

/** The worker's part of v2 info; the gateway adds `description` and `hub_retrieval`. */
export interface ReleaseInfo {
  readonly name: string;
  readonly index_version: string;
  readonly document_count: number;
  /** Crawl periods (shard ids) of the first and last loaded shard; null when the index has no shard. */
  readonly date_range: { readonly first: string | null; readonly last: string | null };
  readonly shards: readonly ShardInfo[];
  readonly available_indexes: readonly string[];
}
