/**
 * The public v2 API as the browser client sees it (spec §4 and the design doc's "v2 shapes the spec does not show").
 * The client knows only this wire format; where the server declares a shape, it is imported as a type (erased from
 * the bundle) so the two cannot drift.
 */
import type { Estimated, FacetValue } from '../../search-v2/types.ts';

/** Metadata values are kept exactly as the API sends them (hashes stay strings). */
export type ArticleMetadata = Readonly<Record<string, unknown>> & {
  readonly title?: string | null;
  readonly url?: string | null;
  readonly sitename?: string | null;
  readonly hostname?: string | null;
  readonly warc_record_id?: string | null;
  readonly text_xxhash64?: string | null;
  readonly publish_date?: string | null;
  readonly warc_date?: string | null;
  readonly language?: string | null;
  readonly lang?: string | null;
  readonly country?: string | null;
  readonly country_source?: string | null;
  readonly country_confidence?: string | null;
  readonly country_tld?: string | null;
  readonly iptc_topic?: string | null;
  readonly scores?: Readonly<Record<string, number>> | null;
};

export interface FindResponse {
  readonly index_version: string;
  readonly total_occurrences: number;
  readonly segment_by_shard: readonly (readonly [number, number])[];
  readonly shard_ids: readonly string[];
  readonly shard_years: readonly string[];
}

export interface FilterLists {
  readonly languages: readonly string[];
  readonly commonlingua_languages: readonly string[];
  readonly topics: readonly string[];
  readonly sources: readonly string[];
  readonly countries: readonly string[];
}

export type FilterName = keyof FilterLists;

export const FILTER_NAMES: readonly FilterName[] = ['languages', 'commonlingua_languages', 'topics', 'sources', 'countries'];

export interface DocumentRecord {
  readonly year: string;
  readonly doc_ix: number;
  readonly occurrences: number;
  readonly first_rank: number;
  readonly metadata: ArticleMetadata;
}

export interface DocumentsResponse {
  readonly index_version: string;
  readonly shard_id: string;
  readonly rank_from: number;
  readonly rank_to: number;
  readonly page_occurrences: number;
  readonly page_distinct_documents: number;
  readonly page_matching_documents: number;
  readonly page_matching_occurrences: number;
  readonly documents: readonly DocumentRecord[];
}

/** `[piece, null]` for context, `[match, "0"]` for an occurrence. */
export type Span = readonly [string, string | null];

export interface GetDocResponse {
  readonly index_version: string;
  readonly year: string;
  readonly shard_id: string;
  readonly rank: number;
  readonly doc_ix: number;
  readonly doc_len: number;
  readonly disp_len: number;
  readonly needle_offset: number;
  readonly text: string;
  readonly spans: readonly Span[];
  readonly metadata: ArticleMetadata;
}

export interface InfoResponse {
  readonly name: string;
  readonly description?: string;
  readonly index_version: string;
  readonly document_count: number;
  readonly date_range: { readonly first: string | null; readonly last: string | null };
  readonly shards: readonly { readonly shard_id: string; readonly year: string; readonly documents: number }[];
  readonly available_indexes: readonly string[];
  /** Which metadata filters the release can serve (absent from gateways before issue 13). */
  readonly filters?: Readonly<Record<FilterName, FilterSupport>>;
}

export interface FilterSupport {
  readonly available: boolean;
  readonly reason: 'no_values' | 'no_attribution_table' | null;
}

export type { Estimated, FacetValue };

/** The facet fields estimate counts (country only with an attribution table). */
export type FacetField = 'language' | 'lang' | 'topic' | 'source' | 'country';

export interface EstimateResponse {
  readonly index_version: string;
  readonly query: string;
  readonly mode: 'exact' | 'sampled';
  readonly total_occurrences: number;
  readonly resolved_ranks: number;
  readonly seed: number;
  readonly confidence: number;
  readonly matching_occurrences: Estimated;
  readonly matching_articles: Estimated;
  readonly facets: Readonly<Partial<Record<FacetField, readonly FacetValue[]>>>;
  /** Matching occurrences per crawl period, chronological, zeros included (scaled when sampled). */
  readonly periods: readonly { readonly period: string; readonly occurrences: number }[];
}

/** Body of every non-validation v2 error. */
export interface ApiErrorBody {
  readonly detail: unknown;
  readonly code?: string;
  readonly [context: string]: unknown;
}
