import type { StoryTally } from '../stories/sampled-stories.ts';
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
  /** Count and list stories instead of articles (issue 28): `exact` merges equal texts, `near` near duplicates too. */
  readonly dedupe?: 'none' | 'exact' | 'near' | null;
  /** Driver occurrences drawn when the query is past its exact bound (default 2,000). */
  readonly sample_size?: number | null;
  /** Seed of that sample (default 1): the same request gives the same estimate. */
  readonly seed?: number | null;
}

/** A 95% interval of a number of articles (both ends equal to the value when exact). */
export interface SearchInterval {
  readonly low: number;
  readonly high: number;
}

/** The sample an estimated answer rests on. */
export interface SearchSample {
  /** Driver occurrences drawn (summed over workers). */
  readonly size: number;
  readonly seed: number;
  /** Driver occurrences they were drawn from. */
  readonly population: number;
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
  /** With dedupe: the matching articles of this article's story (itself included). */
  readonly copies?: number;
  /** With dedupe: the story's release-wide id, to list its matching articles (`POST /api/v2/search/copies`). */
  readonly story?: number;
}

/** Between workers only: a story this worker counted that another worker's shards may also hold. */
export interface SpanningStory {
  /** The release-wide story id. */
  readonly story: number;
  /** Its first matching article on this worker. */
  readonly shard_id: string;
  readonly doc_ix: number;
  /** Its matching articles on this worker. */
  readonly copies: number;
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
  readonly interval: SearchInterval;
  readonly shard_ids: readonly string[];
}

export interface SearchExpansion {
  /** The prefix term, as `econom*`. */
  readonly term: string;
  /** Words it stands for in the selected shards (read from the index), most frequent first, with their occurrences there. */
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
  /** With dedupe: distinct stories among the matching articles (the point estimate when sampled). */
  readonly stories?: number;
  /** With dedupe: the 95% interval of `stories` (both ends equal to it when exact). */
  readonly stories_interval?: SearchInterval;
  /** False when estimated from a seeded sample (past the exact bound): `articles` is then the point estimate. */
  readonly exact: boolean;
  /** The 95% interval of `articles`. */
  readonly interval: SearchInterval;
  /** Null when exact. */
  readonly sample: SearchSample | null;
  readonly by_shard: readonly SearchShardCount[];
  /** Chronological, zero periods included. */
  readonly periods: readonly SearchPeriod[];
  readonly expansions: readonly SearchExpansion[];
  /**
   * The `estimate` facet groups over the matching articles: every value (not only the top ones, so answers for
   * disjoint shards merge exactly), `occurrences` counting the positive terms' occurrences in those articles.
   */
  readonly facets: Readonly<Record<string, readonly FacetValue[]>>;
  /**
   * Matching articles after the cursor (all of them without one): the page is their first `page_size`. When
   * sampled: the distinct matching articles the sample saw (after the cursor), listed in release order; the same seed
   * draws the same sample, so `next_cursor` pages through them.
   */
  readonly following: number;
  /** The first matching articles after the cursor, in release order. */
  readonly page: readonly SearchArticle[];
  /** Send back as `cursor` for the next page; null on the last page. */
  readonly next_cursor: string | null;
  /** Between workers only (a gateway's answer never has it), with dedupe over split years: see `SpanningStory`. */
  readonly spanning_stories?: readonly SpanningStory[];
  /**
   * Between workers only, with dedupe past the bound over split years: this worker's sample sums for the story
   * estimate, whose shared stories the gateway completes with their copies on every worker (`StoryTally`).
   */
  readonly story_sample?: StoryTally;
}
