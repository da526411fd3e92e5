import type { ShardHandle } from '../release/types.ts';
import type { Location } from '../shard/index.ts';
import {
  EXACT_MATCHING,
  matchBudget,
  matchPrepared,
  MatchingError,
  prepareMatch,
  type MatchBudget,
  type MatchOptions,
  type PreparedMatch,
  type ShardMatch,
} from '../matching/index.ts';
import { WorkBudget } from '../work-budget/index.ts';
import { V2Error } from './errors.ts';
import type { MatchingRequest } from './types.ts';

/** The request's matching options (defaults: case-sensitive, not whole-word: the spec's byte-exact matching). */
export function matchOptionsOf(request: MatchingRequest): MatchOptions {
  const caseInsensitive = request.case === 'insensitive';
  const wholeWord = request.whole_word === true;
  return caseInsensitive || wholeWord ? { caseInsensitive, wholeWord } : EXACT_MATCHING;
}

/** An engine matching refusal as the documented v2 error (422, with its bound); anything else as it is. */
export function asV2Error(e: unknown): unknown {
  return e instanceof MatchingError
    ? new V2Error(e.code, e.message, e.limit === undefined ? {} : { limit: e.limit })
    : e;
}

/** Runs `fn`, turning an engine matching refusal into the documented v2 error. */
export function withMatchingErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw asV2Error(e);
  }
}

/**
 * Matches one request's query in the shards it touches, once per shard, within one work budget for the whole
 * request (so a query cannot explode across many shards), stopping when the request's `work` does.
 */
export class RequestMatcher {
  readonly options: MatchOptions;
  readonly #prepared: PreparedMatch;
  readonly #budget: MatchBudget;
  readonly #byShard = new Map<string, ShardMatch>();

  constructor(
    readonly query: string,
    request: MatchingRequest,
    work: WorkBudget = WorkBudget.unlimited(),
  ) {
    this.options = matchOptionsOf(request);
    this.#prepared = withMatchingErrors(() => prepareMatch(query, this.options));
    this.#budget = matchBudget(undefined, undefined, work);
  }

  match(shard: ShardHandle): ShardMatch {
    let m = this.#byShard.get(shard.shardId);
    if (m === undefined) {
      m = withMatchingErrors(() => matchPrepared(shard.reader, this.#prepared, this.#budget));
      this.#byShard.set(shard.shardId, m);
    }
    return m;
  }

  /** Occurrences that count in one shard (whole-word tests included), with matching refusals as v2 errors. */
  async count(shard: ShardHandle): Promise<number> {
    const m = this.match(shard);
    try {
      return await m.count();
    } catch (e) {
      throw asV2Error(e);
    }
  }

  /** Whether the occurrence at `rank` of `shard` counts. */
  counts(shard: ShardHandle, rank: number): boolean {
    const m = this.match(shard);
    return withMatchingErrors(() => m.counts(rank));
  }

  /** `counts` for an occurrence already located (`at` = `locate(rank)`). */
  countsAt(shard: ShardHandle, rank: number, at: Location): boolean {
    const m = this.match(shard);
    return withMatchingErrors(() => m.countsAt(rank, at));
  }
}

/**
 * The query's match in the shard a continuation names, when the continuation carries a query (its ranks must lie
 * in one of the query's intervals); whole_word needs the query, since the rule tests the match's own bytes.
 */
export function continuationMatch(
  shard: ShardHandle,
  request: MatchingRequest & { readonly query?: string | null },
  work: WorkBudget,
): ShardMatch | undefined {
  const query = request.query;
  if (query === undefined || query === null) {
    if (request.whole_word === true)
      throw new V2Error('invalid_query', 'whole_word needs the query: send the query the ranks came from');
    return undefined;
  }
  return new RequestMatcher(query, request, work).match(shard);
}

/** A filter of ranks by the whole-word rule, or undefined when every rank of the range counts. */
export function wholeWordFilter(match: ShardMatch | undefined): ((rank: number) => boolean) | undefined {
  if (match === undefined || !match.wholeWord) return undefined;
  return (rank) => withMatchingErrors(() => match.counts(rank));
}

/** `wholeWordFilter` for ranks already located (`locateRange`): the rule reads the text at the location. */
export function wholeWordFilterAt(
  match: ShardMatch | undefined,
): ((rank: number, at: Location) => boolean) | undefined {
  if (match === undefined || !match.wholeWord) return undefined;
  return (rank, at) => withMatchingErrors(() => match.countsAt(rank, at));
}
