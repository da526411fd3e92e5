/**
 * The v2 search domain: pure functions over an open release (no HTTP). Each takes the validated request in its
 * wire shape and returns the wire response, or throws a `V2Error` whose code maps to one HTTP status and body.
 * Continuations check `expected_index_version` first, before any rank or reference is resolved.
 */
export { V2Error, V2_ERROR_STATUS, isV2ErrorCode, v2ErrorStatus } from './errors.ts';
export type { V2ErrorBody, V2ErrorCode, V2ErrorContext, V2ErrorStatus } from './errors.ts';
export { V2_LIMITS } from './limits.ts';
export { filterKey } from './filter-key.ts';
export { compileFilters, hasNoFilter } from './filters.ts';
export type { DocumentPredicate } from './filters.ts';
export { assertIndexVersion } from './release-lookup.ts';
export { find, count } from './find.ts';
export { occurrences, occurrencesJson } from './occurrences.ts';
export { documents } from './documents.ts';
export { metadata, metadataJson } from './metadata.ts';
export { getDoc } from './get-doc.ts';
export { timeline, crawlPeriodOf } from './timeline.ts';
export { contexts } from './contexts.ts';
export { estimate, estimateDraws, combineEstimate } from './estimate.ts';
export { estimateIntervals, resolveEstimate, type EstimateIntervals, type ResolvedDoc } from './estimate-parts.ts';
export { describeRelease, DEFAULT_INDEX_NAME } from './info.ts';
export { planPages, QueryTotals } from './query-totals.ts';
export type { PageRange } from './query-totals.ts';
export type * from './types.ts';
export { search } from './query/index.ts';
export { ngrams, combineNgrams, ANALYSIS_LIMITS, type NgramsRequestWire, type NgramsResult } from './ngrams/index.ts';
export {
  collocations,
  combineCollocations,
  scoresOf,
  type CollocationsRequestWire,
  type CollocationsResult,
} from './collocations/index.ts';
