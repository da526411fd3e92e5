import type { ArticleMetadata } from '../../release/types.ts';
import type { DocumentFilters, FacetValue, MatchingRequest } from '../types.ts';

/** `POST /api/v2/search`: one query (text form in `query`, or JSON form in `query_tree`), filters, year range. */
export interface SearchRequest extends MatchingRequest, DocumentFilters {
  readonly index: string;
  readonly query?: string | null;
  /** The JSON form of the query (see `ast.ts`); exactly one of `query` and `query_tree`. */
  readonly query_tree?: unknown;
  readonly year_min?: number | null;
  readonly year_max?: number | null;
  /** Matching articles listed (default 10, at most 100). */
  readonly page_size?: number | null;
  /** The `next_cursor` of the previous page (same query): the page continues after it; 409 once the release changed. */
  readonly cursor?: string | null;
}

/** The first occurrence of a positive term in a matching article, with context. */
export interface FirstOccurrence {
  /** The term as written in the canonical query. */
  readonly term: string;
  /** Byte offset in the article. */
  readonly offset: number;
  readonly left: string;
  readonly match: string;
  readonly right: string;
}

export interface SearchArticle {
  readonly shard_id: string;
  readonly year: string;
  readonly doc_ix: number;
  /** Null when the year's metadata store is missing. */
  readonly metadata: ArticleMetadata | null;
  readonly first: FirstOccurrence;
}

export interface SearchShardCount {
  readonly shard_id: string;
  readonly year: string;
  readonly articles: number;
}

export interface SearchPeriod {
  readonly period: string;
  readonly year: string;
  readonly articles: number;
  readonly shard_ids: readonly string[];
}

export interface SearchExpansion {
  /** The prefix term, as `econom*`. */
  readonly term: string;
  /** Words it stood for in the matching articles, most frequent first, with their occurrences there. */
  readonly words: readonly { readonly word: string; readonly occurrences: number }[];
}

export interface SearchResult {
  readonly index_version: string;
  /** The query in canonical text form. */
  readonly query: string;
  /** The query's JSON form, as evaluated. */
  readonly query_tree: unknown;
  /** Normalisations made visible (e.g. spaces trimmed from a phrase). */
  readonly notes: readonly string[];
  /** Matching articles in the selected years that pass the filters. */
  readonly articles: number;
  /** Always true in this version: a query past the work bound is refused (422), never approximated. */
  readonly exact: boolean;
  readonly by_shard: readonly SearchShardCount[];
  /** Chronological, zero periods included. */
  readonly periods: readonly SearchPeriod[];
  readonly expansions: readonly SearchExpansion[];
  /**
   * The `estimate` facet groups over the matching articles: every value (not only the top ones, so answers for
   * disjoint shards merge exactly), `occurrences` counting the positive terms' occurrences in those articles.
   */
  readonly facets: Readonly<Record<string, readonly FacetValue[]>>;
  /** Matching articles after the cursor (all of them without one): the page is their first `page_size`. */
  readonly following: number;
  /** The first matching articles after the cursor, in release order. */
  readonly page: readonly SearchArticle[];
  /** Send back as `cursor` for the next page; null on the last page. */
  readonly next_cursor: string | null;
}
