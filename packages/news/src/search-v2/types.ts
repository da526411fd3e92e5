/**
 * Request and response shapes of the v2 domain layer. They are the wire shapes of the public API (snake_case),
 * so the worker can pass them through the protocol and the gateway can answer them unchanged.
 * Requests arrive here already validated at the gateway edge (types and bounds of single fields);
 * cross-field and release-dependent rules (rank ranges, years, references) are checked here.
 */
import type { FilterName } from './filter-names.ts';
import type { ArticleMetadata } from '../release/types.ts';
import type { Span } from '../shard/types.ts';

/** Matching options of every call that takes a query (default: byte-exact, case-sensitive, any substring). */
export interface MatchingRequest {
  /** `insensitive`: every spelling equal to the query under full Unicode case folding. */
  readonly case?: 'sensitive' | 'insensitive' | null;
  /** Count an occurrence only when the characters around it are not letters or digits. */
  readonly whole_word?: boolean | null;
}

export interface FindRequest extends MatchingRequest {
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

/** One crawl period of a timeline: raw counts and the sizes to normalise them by. */
export interface TimelinePeriod {
  /** `YYYY-MM` or `YYYY`: the crawl period, whatever parts it was split into. */
  readonly period: string;
  readonly year: string;
  readonly occurrences: number;
  /** Articles crawled in the period (matching or not). */
  readonly articles: number;
  /** UTF-8 text bytes of those articles (separators excluded). */
  readonly text_bytes: number;
  /** The shards (parts) the period is stored in. */
  readonly shard_ids: readonly string[];
}

export interface TimelineResult {
  readonly index_version: string;
  readonly query: string;
  readonly total_occurrences: number;
  /** Chronological, every period of the selected years, zero counts included. */
  readonly periods: readonly TimelinePeriod[];
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

export interface RankRangeRequest extends ContinuationRequest, MatchingRequest {
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

export interface ContextsRequest extends ContinuationRequest, MatchingRequest {
  readonly shard_id: string;
  readonly rank_from: number;
  readonly rank_to: number;
  /** Required: the ranks must lie inside its interval, and it is what `match` holds. */
  readonly query: string;
  /** Bytes of context on each side (default 60, at most 200). */
  readonly context_bytes?: number | null;
}

/** One concordance line: the match with its left and right context. */
export interface ConcordanceLine {
  readonly rank: number;
  readonly year: string;
  readonly doc_ix: number;
  /** Byte offset of the match in the article. */
  readonly offset: number;
  readonly left: string;
  readonly match: string;
  readonly right: string;
  readonly title: string | null;
  readonly hostname: string | null;
}

export interface ContextsResult {
  readonly index_version: string;
  readonly shard_id: string;
  readonly rank_from: number;
  readonly rank_to: number;
  readonly context_bytes: number;
  /** In rank order. */
  readonly contexts: readonly ConcordanceLine[];
}

/** Metadata fields `estimate` counts values of. `country` only where the release has an attribution table. */
export type FacetField = 'language' | 'lang' | 'topic' | 'source' | 'country';

export interface FacetValue {
  readonly value: string;
  /** Matching occurrences with this value (estimated in sampled mode). */
  readonly occurrences: number;
  /** Matching articles with this value (estimated in sampled mode). */
  readonly articles: number;
  /** Articles (exact mode) or sampled occurrences (sampled mode) behind the figures: how much data they rest on. */
  readonly observed: number;
}

/** A count with its 95% interval; `low === value === high` when exact. */
export interface Estimated {
  readonly value: number;
  readonly low: number;
  readonly high: number;
}

export interface EstimateResult {
  readonly index_version: string;
  readonly query: string;
  /** `exact` when every rank was resolved, `sampled` when a uniform random sample of ranks was. */
  readonly mode: 'exact' | 'sampled';
  /** Occurrences of the query in the selected years before filters (always exact). */
  readonly total_occurrences: number;
  /** Ranks resolved: all of them (exact) or the sample size. */
  readonly resolved_ranks: number;
  readonly seed: number;
  readonly confidence: number;
  readonly matching_occurrences: Estimated;
  readonly matching_articles: Estimated;
  /** Top values per facet among matching articles. */
  readonly facets: Readonly<Record<string, readonly FacetValue[]>>;
  /** Matching occurrences per crawl period of the selected shards, chronological, zeros included (scaled when sampled). */
  readonly periods: readonly EstimatePeriod[];
}

export interface EstimatePeriod {
  readonly period: string;
  readonly occurrences: number;
}

export interface DocumentFilters {
  readonly languages?: readonly string[] | null;
  readonly commonlingua_languages?: readonly string[] | null;
  readonly topics?: readonly string[] | null;
  readonly sources?: readonly string[] | null;
  readonly countries?: readonly string[] | null;
}

export interface DocumentsRequest extends RankRangeRequest, DocumentFilters {}

export interface EstimateRequest extends FindRequest, DocumentFilters {
  /** Ranks sampled when the query has more than 20,000 occurrences (default 4,000, at most 20,000). */
  readonly sample_size?: number | null;
  /** Seed of the sample (default 1): the same request gives the same estimate. */
  readonly seed?: number | null;
}

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

export interface GetDocRequest extends ContinuationRequest, MatchingRequest {
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
  /** Which metadata filters this index can serve, and why not (filter-support.ts). */
  readonly filters: FilterSupportMap;
}

/** `no_values`: the field is empty in every article; `no_attribution_table`: the release has no country table. */
export interface FilterSupport {
  readonly available: boolean;
  readonly reason: 'no_values' | 'no_attribution_table' | null;
}

/** Support of every filter, keyed by FILTER_NAMES (filter-names.ts). */
export type FilterSupportMap = { readonly [K in FilterName]: FilterSupport };
