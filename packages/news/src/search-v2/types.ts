/**
 * Request and response shapes of the v2 domain layer, each the read-only static type of the schema its call
 * declares (calls/): one declaration per shape. They are the wire shapes of the public API (snake_case), so the
 * worker passes them through the protocol and the gateway answers them unchanged. Requests arrive validated at
 * the gateway edge (types and bounds of single fields); cross-field and release-dependent rules (rank ranges,
 * years, references) are checked here.
 */
import type { ArticleMetadata as StoredMetadata } from '../release/types.ts';
import type { WireOf } from './schema/fields.ts';
import type * as metadataSchema from './schema/fields.ts';
import type * as find from './calls/find.ts';
import type * as count from './calls/count.ts';
import type * as timeline from './calls/timeline.ts';
import type * as getDoc from './calls/get-doc.ts';
import type * as occurrences from './calls/occurrences.ts';
import type * as documents from './calls/documents.ts';
import type * as contexts from './calls/contexts.ts';
import type * as metadata from './calls/metadata.ts';
import type * as estimate from './calls/estimate.ts';
import type * as info from './calls/info.ts';

export type { DocumentFilters, MatchingRequest } from './schema/fields.ts';

export type FindRequest = WireOf<typeof find.FindRequest>;
export type FindResult = WireOf<typeof find.FindAnswer>;
export type CountRequest = WireOf<typeof count.CountRequest>;
export type CountResult = WireOf<typeof count.CountAnswer>;
export type TimelineRequest = WireOf<typeof timeline.TimelineRequest>;
export type TimelinePeriod = WireOf<typeof timeline.TimelinePeriod>;
export type TimelineResult = WireOf<typeof timeline.TimelineAnswer>;

export type RankRangeRequest = WireOf<typeof occurrences.OccurrencesRequest>;
export type Occurrence = WireOf<typeof occurrences.Occurrence>;
export type OccurrencesResult = WireOf<typeof occurrences.OccurrencesAnswer>;
export type ContextsRequest = WireOf<typeof contexts.ContextsRequest>;
export type ConcordanceLine = WireOf<typeof contexts.ConcordanceLine>;
export type ContextsResult = WireOf<typeof contexts.ContextsAnswer>;
export type DocumentsRequest = WireOf<typeof documents.DocumentsRequest>;
export type DocumentRecord = WireOf<typeof documents.DocumentRecord>;
export type DocumentsResult = WireOf<typeof documents.DocumentsAnswer>;
export type DocumentRef = WireOf<typeof metadata.DocumentRef>;
export type MetadataRequest = WireOf<typeof metadata.MetadataRequest>;
export type MetadataResult = WireOf<typeof metadata.MetadataAnswer>;
export type GetDocRequest = WireOf<typeof getDoc.GetDocRequest>;
export type GetDocResult = WireOf<typeof getDoc.GetDocAnswer>;

export type FacetField = WireOf<typeof estimate.FacetField>;
export type EstimateRequest = WireOf<typeof estimate.EstimateRequest>;
export type Estimated = WireOf<typeof estimate.Estimated>;
export type FacetValue = WireOf<typeof estimate.FacetValue>;
export type EstimatePeriod = WireOf<typeof estimate.EstimatePeriod>;
export type EstimateResult = WireOf<typeof estimate.EstimateAnswer>;

export type ShardInfo = WireOf<typeof info.ShardInfo>;
export type ReleaseInfo = WireOf<typeof info.InfoAnswer>;
export type FilterSupport = WireOf<typeof info.FilterSupport>;
/** Support of every filter, keyed by FILTER_NAMES (filter-names.ts). */
export type FilterSupportMap = WireOf<typeof info.FilterSupportMap>;

/** The metadata schema and the store's row type are one shape: either changing alone fails to compile here. */
export type ArticleMetadata = WireOf<typeof metadataSchema.ArticleMetadata>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
export type _MetadataShapesAgree = Assert<Same<ArticleMetadata, StoredMetadata>>;
