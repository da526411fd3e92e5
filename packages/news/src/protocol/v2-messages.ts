/**
 * The v2 part of the gateway⇄worker protocol. Bodies and results are the v2 domain's wire shapes
 * (src/search-v2/types.ts, pure types), so the gateway answers a result unchanged. A v2 refusal travels as
 * the documented error body inside a reply of the same kind; the gateway maps its code to a status with
 * `V2_ERROR_STATUS`, the one table of v2 codes.
 */
import type {
  ContextsRequest, ContextsResult, CountResult, DocumentsRequest, DocumentsResult, EstimateRequest, EstimateResult,
  FindRequest as V2FindBody, FindResult, GetDocRequest as V2GetDocBody, GetDocResult, MetadataRequest, MetadataResult,
  RankRangeRequest, OccurrencesResult, ReleaseInfo, TimelineResult,
} from '../search-v2/types.ts';
import type { V2ErrorBody } from '../search-v2/errors.ts';
import type { SearchRequest, SearchResult } from '../search-v2/query/types.ts';
import type { EstimateIntervals, ResolvedDoc } from '../search-v2/estimate-parts.ts';

export { V2_ERROR_STATUS, isV2ErrorCode } from '../search-v2/errors.ts';
export { V2_LIMITS } from '../search-v2/limits.ts';
export { QUERY_LIMITS } from '../search-v2/query/limits.ts';
// How the gateway ends a search page merged from several workers: the same pure step one worker runs.
export { nextCursor } from '../search-v2/query/cursor.ts';
export { FILTER_NAMES, type FilterName } from '../search-v2/filter-names.ts';
// How the gateway finishes an estimate whose shards sit on several workers: the same pure step one worker runs.
export { combineEstimate, estimateDraws } from '../search-v2/estimate.ts';
export type { V2ErrorBody, V2ErrorCode } from '../search-v2/errors.ts';
export type {
  CountResult as V2CountResult, DocumentsRequest as V2DocumentsBody, DocumentsResult as V2DocumentsResult,
  FindResult as V2FindResult, GetDocResult as V2GetDocResult, MetadataRequest as V2MetadataBody,
  MetadataResult as V2MetadataResult, RankRangeRequest as V2OccurrencesBody, OccurrencesResult as V2OccurrencesResult,
  ReleaseInfo as V2ReleaseInfo, V2FindBody, V2GetDocBody, TimelineResult as V2TimelineResult,
  ContextsRequest as V2ContextsBody, ContextsResult as V2ContextsResult, EstimateRequest as V2EstimateBody,
  EstimateResult as V2EstimateResult, EstimateIntervals as V2EstimateIntervals, ResolvedDoc as V2ResolvedDoc,
  SearchRequest as V2SearchBody, SearchResult as V2SearchResult,
};

/** Step 2 of an estimate spread over workers: the draws to resolve (null: every rank, exact mode). */
export interface V2EstimateResolveBody {
  readonly request: EstimateRequest;
  readonly draws: readonly (readonly [string, number])[] | null;
}

/** Each v2 request kind with its body and the result its JSON text holds. */
export interface V2Exchanges {
  readonly v2_find: { readonly body: V2FindBody; readonly result: FindResult };
  readonly v2_count: { readonly body: V2FindBody; readonly result: CountResult };
  readonly v2_get_doc: { readonly body: V2GetDocBody; readonly result: GetDocResult };
  readonly v2_occurrences: { readonly body: RankRangeRequest; readonly result: OccurrencesResult };
  readonly v2_documents: { readonly body: DocumentsRequest; readonly result: DocumentsResult };
  readonly v2_metadata: { readonly body: MetadataRequest; readonly result: MetadataResult };
  readonly v2_info: { readonly body: { readonly index: string | null }; readonly result: ReleaseInfo };
  readonly v2_timeline: { readonly body: V2FindBody; readonly result: TimelineResult };
  readonly v2_contexts: { readonly body: ContextsRequest; readonly result: ContextsResult };
  readonly v2_estimate: { readonly body: EstimateRequest; readonly result: EstimateResult };
  /** Articles matching a query of the news query language (search-v2/DESIGN.md, "Query language"). */
  readonly v2_search: { readonly body: SearchRequest; readonly result: SearchResult };
  /** Internal (no public route): the gateway's steps of an estimate over shards on several workers. */
  readonly v2_estimate_intervals: { readonly body: EstimateRequest; readonly result: EstimateIntervals };
  readonly v2_estimate_resolve: { readonly body: V2EstimateResolveBody; readonly result: { readonly resolved: readonly ResolvedDoc[] } };
}

export type V2Kind = keyof V2Exchanges;

export const V2_KINDS = ['v2_find', 'v2_count', 'v2_get_doc', 'v2_occurrences', 'v2_documents', 'v2_metadata', 'v2_info',
  'v2_timeline', 'v2_contexts', 'v2_estimate', 'v2_estimate_intervals', 'v2_estimate_resolve', 'v2_search'] as const satisfies readonly V2Kind[];

export type V2WorkerRequest = { [K in V2Kind]: { readonly kind: K; readonly body: V2Exchanges[K]['body'] } }[V2Kind];

/**
 * The public response body as JSON text (encoded once, by the worker: the gateway sends it as it is instead of
 * parsing and re-encoding megabytes of occurrences), or the documented error body of a refusal.
 */
export type V2Outcome = { readonly ok: true; readonly json: string } | { readonly ok: false; readonly error: V2ErrorBody };

export type V2WorkerReply = {
  [K in V2Kind]: { readonly kind: K; readonly indexVersion: string; readonly outcome: V2Outcome };
}[V2Kind];
