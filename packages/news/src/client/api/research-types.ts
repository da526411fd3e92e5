/**
 * The v2 research endpoints the timeline and concordance views read (`/api/v2/timeline`, `/api/v2/contexts`),
 * as the wire sends them. Kept apart from types.ts so the search views and these views change independently.
 */

// The wire shapes are the server's own declarations (type-only, erased from the bundle), so a change to the API
// fails the client's type check instead of drifting from it.
export type { TimelinePeriod, TimelineResult as TimelineResponse } from '../../search-v2/types.ts';

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

export interface ContextsResponse {
  readonly index_version: string;
  readonly shard_id: string;
  readonly rank_from: number;
  readonly rank_to: number;
  readonly context_bytes: number;
  readonly contexts: readonly ConcordanceLine[];
}
