/**
 * The v2 research endpoints the timeline and concordance views read (`/api/v2/timeline`, `/api/v2/contexts`),
 * as the wire sends them. Kept apart from types.ts so the search views and these views change independently.
 */

// The wire shapes are the server's own declarations (type-only, erased from the bundle), so a change to the API
// fails the client's type check instead of drifting from it.
export type {
  ConcordanceLine,
  ContextsResult as ContextsResponse,
  TimelinePeriod,
  TimelineResult as TimelineResponse,
} from '../../search-v2/types.ts';
