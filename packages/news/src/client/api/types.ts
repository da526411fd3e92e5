/**
 * The public v2 API as the browser client sees it (spec §4 and the design doc's "v2 shapes the spec does not show").
 * The client knows only this wire format; where the server declares a shape, it is imported as a type (erased from
 * the bundle) so the two cannot drift.
 */
import type {
  ArticleMetadata as WireArticleMetadata,
  DocumentRecord as WireDocumentRecord,
  DocumentsResult,
  Estimated,
  EstimateResult,
  FacetField,
  FacetValue,
  FilterSupport,
  FilterSupportMap,
  FindResult,
  GetDocResult,
  ReleaseInfo,
} from '../../search-v2/types.ts';
import type { FilterName } from '../../search-v2/filter-names.ts';
import type { SearchArticle, SearchResult } from '../../search-v2/query/types.ts';
import type { CopiesResult, StoryCopy } from '../../search-v2/query/story-copies.ts';

// The one value the client takes from the server's code: a list of five names in a dependency-free file.
export { FILTER_NAMES, type FilterName } from '../../search-v2/filter-names.ts';

/**
 * Metadata values are kept exactly as the API sends them (hashes stay strings); read leniently, so a field a newer
 * server adds or an older one lacks reads as what it is.
 */
export type ArticleMetadata = Readonly<Record<string, unknown>> & Partial<WireArticleMetadata>;

export type FindResponse = FindResult;

/** A filter's values as the client holds them (every filter present, maybe empty). */
export type FilterLists = { readonly [K in FilterName]: readonly string[] };

/** The server's shape with metadata read leniently. */
type WithMetadata<T> = Omit<T, 'metadata'> & { readonly metadata: ArticleMetadata };

export type DocumentRecord = WithMetadata<WireDocumentRecord>;
export type DocumentsResponse = Omit<DocumentsResult, 'documents'> & { readonly documents: readonly DocumentRecord[] };

/** `[piece, null]` for context, `[match, "0"]` for an occurrence. */
export type Span = GetDocResult['spans'][number];
export type GetDocResponse = WithMetadata<GetDocResult>;

/** info as the gateway answers it; `filters` is absent from gateways before issue 13. */
export type InfoResponse = Omit<ReleaseInfo, 'filters'> & {
  readonly description?: string;
  readonly filters?: FilterSupportMap;
};

export type { FilterSupport };

export type { Estimated, FacetField, FacetValue };

/** estimate's answer; facets keyed by the fields the server counts (country only with an attribution table). */
export type EstimateResponse = Omit<EstimateResult, 'facets'> & {
  readonly facets: Readonly<Partial<Record<FacetField, readonly FacetValue[]>>>;
};

/** One matching article of a query-language search, metadata read leniently (null when its year's store is missing). */
export type QueryArticle = Omit<SearchArticle, 'metadata'> & { readonly metadata: ArticleMetadata | null };
/** `POST /api/v2/search`'s answer. */
export type QuerySearchResponse = Omit<SearchResult, 'page'> & { readonly page: readonly QueryArticle[] };

/** One article of a story (`POST /api/v2/search/copies`), its metadata read leniently. */
export type QueryCopy = Omit<StoryCopy, 'metadata'> & { readonly metadata: ArticleMetadata | null };
/** `POST /api/v2/search/copies`'s answer: a page of the copies a card's "and N copies" counts. */
export type QueryCopiesResponse = Omit<CopiesResult, 'page'> & { readonly page: readonly QueryCopy[] };

/** Body of every non-validation v2 error. */
export interface ApiErrorBody {
  readonly detail: unknown;
  readonly code?: string;
  readonly [context: string]: unknown;
}
