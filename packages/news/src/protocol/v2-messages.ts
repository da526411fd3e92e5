/**
 * The v2 part of the gateway⇄worker protocol: one request kind per call of the registry `V2_CALLS`
 * (search-v2/calls), whose body and result are the shapes that call declares, so the gateway answers a result
 * unchanged. A v2 refusal travels as
 * the documented error body inside a reply of the same kind; the gateway maps its code to a status with
 * `V2_ERROR_STATUS`, the one table of v2 codes.
 */
import type {
  ContextsRequest,
  ContextsResult,
  CountResult,
  DocumentsRequest,
  DocumentsResult,
  EstimateRequest,
  EstimateResult,
  FindRequest as V2FindBody,
  FindResult,
  GetDocRequest as V2GetDocBody,
  GetDocResult,
  MetadataRequest,
  MetadataResult,
  RankRangeRequest,
  OccurrencesResult,
  ReleaseInfo,
  TimelineRequest,
  TimelineResult,
} from '../search-v2/types.ts';
import type { V2ErrorBody } from '../search-v2/errors.ts';
import type { EstimateIntervals, ResolvedDoc } from '../search-v2/estimate-parts.ts';
import type { V2AnswerOf, V2Kind, V2RequestOf } from '../search-v2/calls/index.ts';

export { V2_ERROR_STATUS, isV2ErrorCode } from '../search-v2/errors.ts';
export { V2_LIMITS } from '../search-v2/limits.ts';
export { QUERY_LIMITS } from '../search-v2/query/limits.ts';
export { FILTER_NAMES, type FilterName } from '../search-v2/filter-names.ts';
// How the gateway finishes an estimate whose shards sit on several workers: the same pure step one worker runs.
export { combineEstimate, estimateDraws, mergeStoryCopies, storiesToCount } from '../search-v2/estimate.ts';
export { byShardOrder } from '../search-v2/shard-order.ts';
// How the gateway finishes a timeline whose stories are sampled over several workers (the steps one worker runs).
export { countsOnly, storySampleDraws, storySampleRequest, withSampledStories } from '../search-v2/timeline-sampled.ts';
export { STORY_TIMELINE_OCCURRENCES } from '../search-v2/stories/timeline-stories.ts';
export { storiesToComplete } from '../search-v2/calls/dedupe-combine.ts';
export type { V2ErrorBody, V2ErrorCode } from '../search-v2/errors.ts';
export type {
  CountResult as V2CountResult,
  DocumentsRequest as V2DocumentsBody,
  DocumentsResult as V2DocumentsResult,
  FindResult as V2FindResult,
  GetDocResult as V2GetDocResult,
  MetadataRequest as V2MetadataBody,
  MetadataResult as V2MetadataResult,
  RankRangeRequest as V2OccurrencesBody,
  OccurrencesResult as V2OccurrencesResult,
  ReleaseInfo as V2ReleaseInfo,
  V2FindBody,
  V2GetDocBody,
  TimelineRequest as V2TimelineBody,
  TimelineResult as V2TimelineResult,
  ContextsRequest as V2ContextsBody,
  ContextsResult as V2ContextsResult,
  EstimateRequest as V2EstimateBody,
  EstimateResult as V2EstimateResult,
  EstimateIntervals as V2EstimateIntervals,
  ResolvedDoc as V2ResolvedDoc,
};
export type { StoryCopyCount as V2StoryCopyCount } from '../search-v2/stories/sampled-stories.ts';
export type { SearchRequest as V2SearchBody, SearchResult as V2SearchResult } from '../search-v2/query/types.ts';

/** Step 2 of an estimate spread over workers: the draws to resolve (null: every rank, exact mode). */
export type V2EstimateResolveBody = V2RequestOf<'v2_estimate_resolve'>;

/** Each v2 request kind with its body and the result its JSON text holds: what the call declares (search-v2/calls). */
export type V2Exchanges = { readonly [K in V2Kind]: { readonly body: V2RequestOf<K>; readonly result: V2AnswerOf<K> } };

export { V2_KINDS, V2_CALLS, v2CallOf, type V2Kind } from '../search-v2/calls/index.ts';
export type {
  CallCost as V2CallCost,
  CallRoute as V2CallRoute,
  Combine as V2Combine,
  CombineContext as V2CombineContext,
  RefusalDoc as V2RefusalDoc,
  V2Call,
  V2RequestOf,
  V2AnswerOf,
} from '../search-v2/calls/index.ts';

export type V2WorkerRequest = { [K in V2Kind]: { readonly kind: K; readonly body: V2Exchanges[K]['body'] } }[V2Kind];

/**
 * The public response body as JSON text (encoded once, by the worker: the gateway sends it as it is instead of
 * parsing and re-encoding megabytes of occurrences), or the documented error body of a refusal.
 */
export type V2Outcome =
  { readonly ok: true; readonly json: string } | { readonly ok: false; readonly error: V2ErrorBody };

export type V2WorkerReply = {
  [K in V2Kind]: { readonly kind: K; readonly indexVersion: string; readonly outcome: V2Outcome };
}[V2Kind];
