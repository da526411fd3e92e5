import type { OpenRelease } from '../../release/types.ts';
import type { WordCase } from '../../words/index.ts';
import type { CombineContext } from '../calls/define.ts';
import { positionIn } from '../shard-order.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { COUNT_LIMITS, combineSamples, type ArticleSample, type CountLimits } from './count-articles.ts';
import type { Subcorpus } from './subcorpus.ts';
import { countsOf, resolveSubcorpus, type SampleOptions } from './subcorpus-counts.ts';
import { shardCountOrder, shardWordCounts, type SortedCounts } from './word-tables.ts';

export interface FrequenciesRequest extends Subcorpus, SampleOptions {
  readonly index: string;
  readonly case?: WordCase | null;
  readonly limit?: number | null;
}

export interface WordFrequency {
  readonly word: string;
  readonly count: number;
  readonly per_million: number;
}

export interface FrequenciesResult {
  readonly index_version: string;
  readonly case: WordCase;
  /** Word tokens of the subcorpus (every word, the per-million base). */
  readonly tokens: number;
  readonly shard_ids: readonly string[];
  readonly words: readonly WordFrequency[];
  /**
   * An upper bound of the count of any word not in `words` (0: `words` is every word). Answers of workers holding
   * disjoint shards combine exactly only when it proves the merged top list (`exact`).
   */
  readonly rest_max: number;
  readonly exact: boolean;
  /** Past the counting bound of a filtered or query subcorpus: the articles sampled (counts are then estimates). */
  readonly sample: ArticleSample | null;
}

export const DEFAULT_FREQUENCY_LIMIT = 100;
export const MAX_FREQUENCY_LIMIT = 1000;

const perMillion = (count: number, tokens: number): number => (tokens === 0 ? 0 : (count * 1e6) / tokens);
const byCountThenWord = (a: { word: string; count: number }, b: { word: string; count: number }): number =>
  b.count - a.count || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0);

/** The `k` most frequent words, in list order; only words at or over the k-th largest count are sorted. */
export function topOf(list: SortedCounts, k: number): { word: string; count: number }[] {
  const values = Float64Array.from(list.counts).sort();
  const floor = values.length <= k ? -Infinity : (values[values.length - k] ?? -Infinity);
  const out: { word: string; count: number }[] = [];
  list.words.forEach((word, i) => {
    const count = list.counts[i] ?? 0;
    if (count >= floor) out.push({ word, count });
  });
  return out.sort(byCountThenWord).slice(0, k);
}

/**
 * The most frequent words of a subcorpus with their counts and rates per million words, from the shards' word-count
 * tables (no text is read). One shard: its table's order; several: their counts summed first, so the list is exact.
 * @example (await frequencies(release, { index: 'news', periods: ['1987-03'], limit: 3 })).words[0] // { word: 'the', count: 51234, per_million: 48210.5 }
 */
export async function frequencies(
  release: OpenRelease,
  request: FrequenciesRequest,
  work: WorkBudget = WorkBudget.unlimited(),
  limits: CountLimits = COUNT_LIMITS,
): Promise<FrequenciesResult> {
  const wordCase = request.case ?? 'sensitive';
  const limit = request.limit ?? DEFAULT_FREQUENCY_LIMIT;
  const sub = await resolveSubcorpus(release, request.index, request, wordCase, request, work, limits);
  const { shards, tokens } = sub;
  let top: { word: string; count: number }[];
  let restMax = 0;
  const only = sub.kind === 'tables' && shards.length === 1 ? shards[0] : undefined;
  if (only !== undefined) {
    const t = shardWordCounts(only, wordCase);
    const order = shardCountOrder(only, wordCase);
    top = [...order.subarray(0, limit)].map((i) => ({ word: t.words[i] ?? '', count: t.counts[i] ?? 0 }));
    restMax = order.length > limit ? (t.counts[order[limit] ?? 0] ?? 0) : 0;
  } else {
    const ranked = topOf(countsOf(sub, wordCase), limit + 1);
    top = ranked.slice(0, limit);
    restMax = ranked[limit]?.count ?? 0;
  }
  return {
    index_version: release.indexVersion,
    case: wordCase,
    tokens,
    shard_ids: shards.map((s) => s.shardId),
    words: top.map((w) => ({ ...w, per_million: perMillion(w.count, tokens) })),
    rest_max: restMax,
    exact: sub.kind === 'tables' || sub.exact,
    sample: sub.kind === 'tables' ? null : sub.sample,
  };
}

/**
 * Answers of disjoint shard sets as one: listed counts summed; a word a part did not list may hide up to that part's
 * `rest_max` there, so the result is `exact` only when those bounds cannot change a listed count or the order.
 */
export function combineFrequencies(
  parts: readonly FrequenciesResult[],
  ctx: CombineContext,
  body: FrequenciesRequest,
): FrequenciesResult {
  const limit = body.limit ?? DEFAULT_FREQUENCY_LIMIT;
  const tokens = parts.reduce((n, p) => n + p.tokens, 0);
  const restSum = parts.reduce((n, p) => n + p.rest_max, 0);
  const seen = new Map<string, { word: string; count: number; hidden: number }>();
  for (const p of parts) {
    for (const w of p.words) {
      const m = seen.get(w.word) ?? { word: w.word, count: 0, hidden: restSum };
      m.count += w.count;
      m.hidden -= p.rest_max;
      seen.set(w.word, m);
    }
  }
  const ranked = [...seen.values()].sort(byCountThenWord);
  const top = ranked.slice(0, limit);
  const beyond = Math.max(restSum, ...ranked.slice(limit).map((w) => w.count + w.hidden));
  const last = top.at(-1);
  // The list is exact when no word left out could reach it: a listed word could not miss counts, and each word
  // beyond it, at most its bound, ranks after the last listed one (a tie counts: equal counts order by word); words
  // no worker listed are unknown, so their bound must stay below the last count (or be 0 while the list has room).
  const outranked = (w: { word: string; count: number; hidden: number }) =>
    last !== undefined && byCountThenWord(last, { word: w.word, count: w.count + w.hidden }) < 0;
  const roomFor = top.length < limit;
  const exact =
    parts.every((p) => p.exact) &&
    top.every((w) => w.hidden === 0) &&
    (roomFor ? restSum === 0 : restSum < (last?.count ?? 0)) &&
    ranked.slice(limit).every(outranked);
  const pos = positionIn(ctx.order);
  return {
    index_version: ctx.indexVersion,
    case: parts[0]?.case ?? body.case ?? 'sensitive',
    tokens,
    shard_ids: parts.flatMap((p) => p.shard_ids).sort((a, b) => pos(a) - pos(b)),
    words: top.map((w) => ({ word: w.word, count: w.count, per_million: perMillion(w.count, tokens) })),
    rest_max: beyond,
    exact,
    sample: combineSamples(parts.map((p) => p.sample)),
  };
}
