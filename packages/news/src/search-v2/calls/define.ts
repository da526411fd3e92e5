/**
 * What one v2 call declares, once: its request and answer schemas (the TS types are `WireOf` them), how the
 * worker runs it, how a cluster routes it over workers and combines their answers, and its public route.
 * Everything else is derived: the gateway's validation, routes and API docs (gateway/v2), the worker's decoder
 * and dispatch (protocol/v2-decode.ts, worker/v2-handler.ts), the cluster's routing (gateway/cluster).
 */
import type { TObject, TSchema } from '@sinclair/typebox';
import type { OpenRelease } from '../../release/types.ts';
import type { WorkBudget } from '../../work-budget/index.ts';
import type { WireOf } from '../schema/fields.ts';
import type { EstimateRequest, MetadataRequest, TimelineRequest } from '../types.ts';
import type { SearchRequest } from '../query/types.ts';

/** How admission treats the call: `by_matching` is expensive only with case-insensitive or whole-word matching. */
export type CallCost = 'cheap' | 'expensive' | 'by_matching';

/** One documented refusal of the public route: its status and the codes behind it (errors.ts `V2_ERROR_STATUS`). */
export interface RefusalDoc {
  readonly status: number;
  readonly description: string;
}

/** The public HTTP route of a call (the gateway adds validation, release and availability refusals itself). */
export interface CallRoute {
  readonly method: 'GET' | 'POST';
  /** Under /api/v2. */
  readonly path: string;
  readonly cost: CallCost;
  readonly summary: string;
  /** The call's own refusals, in the order the API docs list them. */
  readonly refusals: readonly RefusalDoc[];
}

/** What `combine` needs besides the parts: the chronological order of the shards they cover, and the release. */
export interface CombineContext {
  readonly order: readonly string[];
  readonly indexVersion: string;
}

/**
 * Answers of disjoint shard sets into the answer for their union, as one process holding them all gives. `body` is
 * the request they answer (a page's size, for instance).
 */
export type Combine<A, B = unknown> = (parts: readonly A[], ctx: CombineContext, body: B) => A;

export interface YearSelection {
  readonly index: string;
  readonly year_min?: number | null;
  readonly year_max?: number | null;
}

/**
 * How a call spreads over workers that each hold some shards (gateway/cluster implements each way once):
 * - `years`: the year-selected shards of the index, answers combined (one worker holding them all answers whole);
 * - `index`: every shard of the index (`of` gives its name, null for the default), answers combined;
 * - `shard`: the one shard the request names, answered whole by one replica;
 * - `references`: metadata references split by crawl year, put back in request order;
 * - `estimate`: the estimate's steps (estimate-parts.ts) when no worker holds every shard;
 * - `timeline`: as `years`; with dedupe past the story bound, the counts without stories and the estimate's
 *   steps for the sampled stories (gateway/cluster/timeline-split.ts);
 * - `search`: as `years`, and with dedupe past the bound a second round counting shared stories' copies on every
 *   worker (`v2_search_stories`) before `combine`;
 * - `internal`: a step the gateway sends itself; never routed.
 */
export type Routing<B, A> =
  | { readonly by: 'years'; of(body: B): YearSelection; readonly combine: Combine<A, B> }
  | { readonly by: 'index'; of(body: B): { readonly index: string | null }; readonly combine: Combine<A, B> }
  | { readonly by: 'shard'; of(body: B): { readonly index: string; readonly shard_id: string } }
  | { readonly by: 'references'; of(body: B): MetadataRequest }
  | { readonly by: 'estimate'; of(body: B): EstimateRequest }
  | { readonly by: 'timeline'; of(body: B): TimelineRequest; readonly combine: Combine<A, B> }
  | {
      readonly by: 'search';
      of(body: B): SearchRequest;
      /** With the sampled stories' matching articles on every worker (story → copies); empty when none was asked. */
      combine(
        parts: readonly A[],
        ctx: CombineContext,
        body: B,
        copies: ReadonlyMap<number, { readonly copies: number }>,
      ): A;
    }
  | { readonly by: 'internal' };

/** An answer the domain encoded itself (a large page is built as text directly). */
export type EncodedAnswer = string;

export interface V2Call<Req extends TObject = TObject, Ans extends TSchema = TSchema> {
  readonly request: Req;
  /** Checked against real answers of the call (calls.test.ts), not documentation only. */
  readonly answer: Ans;
  /** Null for internal steps. */
  readonly route: CallRoute | null;
  readonly routing: Routing<WireOf<Req>, WireOf<Ans>>;
  run(
    release: OpenRelease,
    body: WireOf<Req>,
    work: WorkBudget,
  ): Promise<WireOf<Ans> | EncodedAnswer> | WireOf<Ans> | EncodedAnswer;
}

/** Declares a call; the identity, for inference of its two schemas. */
export const defineV2Call = <Req extends TObject, Ans extends TSchema>(call: V2Call<Req, Ans>): V2Call<Req, Ans> =>
  call;

/** The common routing of a query over crawl years. */
export const byYears = <A, B extends YearSelection = YearSelection>(combine: Combine<A, B>) => ({
  by: 'years' as const,
  of: (b: B) => b,
  combine,
});
/** The common routing of a continuation: the shard it names. */
export const byShard = { by: 'shard' as const, of: (b: { readonly index: string; readonly shard_id: string }) => b };

/** Refusals several calls document. */
export const REFUSALS = {
  stale: {
    status: 409,
    description:
      'stale_index_version: expected_index_version is not the release served now; run find again. Checked before any rank is resolved.',
  },
  cpuLimit: {
    status: 422,
    description:
      'query_too_expensive: the request needed more than its CPU allowance on the worker (1,000 ms on the compressed ' +
      'index kind, 1,500 ms on the SA kind; whole_word and case-insensitive searches of very common words cost most); narrow it or use estimate.',
  },
  ranks: (limit: number) => ({
    status: 422,
    description: `too_many_ranks (over ${limit} ranks), rank_out_of_range (rank_to over the shard size, or outside the query's interval), unknown_shard, unknown_index.`,
  }),
  noCountryTable: {
    status: 503,
    description: 'country_attribution_unavailable: countries filter without an attribution table.',
  },
} as const satisfies Record<string, RefusalDoc | ((n: number) => RefusalDoc)>;
