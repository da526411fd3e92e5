/**
 * Matching options over any index kind: case-insensitive search (every spelling equal under full Unicode case
 * folding, as disjoint rank intervals) and the whole-word rule (an occurrence counts when the characters around it
 * are not letters or digits). Engine level: no HTTP, no metadata. The v2 layer maps `MatchingError` to 422s.
 */
import type { Location, ShardReader } from '../shard/types.ts';
import { findCaseVariants, stepBudget, type StepBudget, type VariantInterval } from './case-variants.ts';
import { MatchingError } from './errors.ts';
import {
  assertWholeWordSupported,
  isWholeWordAt,
  isWholeWordAtLocation,
  isWholeWordIn,
  type TextReader,
} from './word-boundary.ts';
import { WorkBudget } from '../work-budget/index.ts';

export { MatchingError, type MatchingErrorCode } from './errors.ts';
export {
  findCaseVariants,
  ranksIn,
  stepBudget,
  DEFAULT_CASE_STEPS,
  type StepBudget,
  type VariantInterval,
} from './case-variants.ts';
export { charactersFoldingTo, foldedCodePoints } from './case-folding.ts';
export { isWholeWordAtOffset, isWholeWordIn } from './word-boundary.ts';

export interface MatchOptions {
  readonly caseInsensitive: boolean;
  readonly wholeWord: boolean;
}

export const EXACT_MATCHING: MatchOptions = { caseInsensitive: false, wholeWord: false };

/** Ranks one request may test against the whole-word rule before it is refused (a sample answers larger ones). */
export const DEFAULT_WHOLE_WORD_RANKS = 200_000;

/** The work one request may do, shared by all its shards; `work` bounds it in time (the rest counts steps and ranks). */
export interface MatchBudget {
  readonly steps: StepBudget;
  ranksLeft: number;
  readonly rankLimit: number;
  readonly work: WorkBudget;
}

export function matchBudget(
  steps?: number,
  ranks = DEFAULT_WHOLE_WORD_RANKS,
  work: WorkBudget = WorkBudget.unlimited(),
): MatchBudget {
  return { steps: stepBudget(steps, work), ranksLeft: ranks, rankLimit: ranks, work };
}

/** A query matched in one shard. */
export interface ShardMatch {
  /** Disjoint, in rank order; each holds one spelling. Case-sensitive: exactly one (possibly empty). */
  readonly intervals: readonly VariantInterval[];
  readonly wholeWord: boolean;
  /**
   * Occurrences that count (after the whole-word rule). Testing every rank may take long, so the loop pauses
   * between slices of the budget's work (and stops with it); computed once per match.
   */
  count(): Promise<number>;
  /** The interval holding `rank`, if any. */
  intervalOf(rank: number): VariantInterval | undefined;
  /** Whether the occurrence at `rank` (inside an interval) counts. */
  counts(rank: number): boolean;
  /**
   * `counts` for an occurrence its caller has located (`at` = `locate(rank)`): the rule reads the text there without
   * locating again; callers going through their occurrences in text order read each compressed text block once.
   */
  countsAt(rank: number, at: Location): boolean;
}

const utf8 = new TextEncoder();

/** The per-query part of matching, done once per request however many shards it touches. */
export interface PreparedMatch {
  readonly query: string;
  readonly bytes: Uint8Array;
  readonly options: MatchOptions;
}

/** Encodes the query and checks the options against it (whole_word refuses spaceless scripts). */
export function prepareMatch(query: string, options: MatchOptions): PreparedMatch {
  if (options.wholeWord) assertWholeWordSupported(query);
  return { query, bytes: utf8.encode(query), options };
}

/**
 * Matches `query` in one shard with the options. An empty query is the whole shard (case-sensitive).
 * @example await matchShard(reader, 'Oil prices', { caseInsensitive: true, wholeWord: true }, matchBudget()).count()
 */
export function matchShard(reader: ShardReader, query: string, options: MatchOptions, budget: MatchBudget): ShardMatch {
  return matchPrepared(reader, prepareMatch(query, options), budget);
}

/** `matchShard` for a query prepared once (a request over many shards). */
export function matchPrepared(reader: ShardReader, prepared: PreparedMatch, budget: MatchBudget): ShardMatch {
  const { query, bytes, options } = prepared;
  let intervals: VariantInterval[];
  if (options.caseInsensitive && query.length > 0) {
    intervals = findCaseVariants(reader, query, budget.steps);
  } else {
    // Always the one interval, empty or not: its position is where the query would sort (spec behaviour).
    const { lo, hi } = reader.find(bytes);
    intervals = [{ lo, hi, bytes }];
  }
  const intervalOf = (rank: number): VariantInterval | undefined =>
    intervals.find((iv) => rank >= iv.lo && rank < iv.hi);
  const wholeWord = options.wholeWord && query.length > 0;
  /** The spelling at `rank` when the rule applies there (the rank charged to the budget), else whether it counts. */
  const tested = (rank: number): Uint8Array | boolean => {
    if (!wholeWord) return true;
    const iv = intervalOf(rank);
    if (iv === undefined) return false;
    if (--budget.ranksLeft < 0) {
      throw new MatchingError(
        'too_many_occurrences',
        `whole_word tests every occurrence, and this request would test more than ${budget.rankLimit}; ` +
          'use estimate (it samples), narrow the years, or search without whole_word',
        budget.rankLimit,
      );
    }
    return iv.bytes;
  };
  const counts = (rank: number): boolean => {
    const spelling = tested(rank);
    return typeof spelling === 'boolean' ? spelling : isWholeWordAt(reader, rank, spelling);
  };
  const countsAt = (rank: number, at: Location): boolean => {
    const spelling = tested(rank);
    if (typeof spelling === 'boolean') return spelling;
    return reader.readText === undefined
      ? isWholeWordAt(reader, rank, spelling)
      : isWholeWordAtLocation(reader as TextReader, at, spelling);
  };
  const { work } = budget;
  const countAll = async (): Promise<number> => {
    let n = 0;
    for (const iv of intervals) {
      if (!wholeWord) {
        n += iv.hi - iv.lo;
        continue;
      }
      for (let r = iv.lo; r < iv.hi; r++) {
        if (work.due()) await work.pause();
        if (counts(r)) n++;
      }
    }
    return n;
  };
  let memo: Promise<number> | undefined;
  return { intervals, wholeWord, count: () => (memo ??= countAll()), intervalOf, counts, countsAt };
}

/** Occurrences of any of the spellings in one article's bytes, under the whole-word rule when asked. */
export function countInArticle(article: Buffer, spellings: readonly Uint8Array[], wholeWord: boolean): number {
  let n = 0;
  for (const s of spellings) {
    if (s.length === 0) continue;
    for (let at = article.indexOf(s); at !== -1; at = article.indexOf(s, at + 1)) {
      if (!wholeWord || isWholeWordIn(article, at, s.length)) n++;
    }
  }
  return n;
}
