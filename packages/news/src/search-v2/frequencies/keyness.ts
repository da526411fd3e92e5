import type { OpenRelease } from '../../release/types.ts';
import type { WordCase } from '../../words/index.ts';
import type { CombineContext } from '../calls/define.ts';
import { positionIn } from '../shard-order.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { V2Error } from '../errors.ts';
import { COUNT_LIMITS, combineSamples, type ArticleSample, type CountLimits } from './count-articles.ts';
import type { Subcorpus } from './subcorpus.ts';
import { countsOf, resolveSubcorpus, restOf, type ResolvedSubcorpus, type SampleOptions } from './subcorpus-counts.ts';

export interface KeynessRequest extends SampleOptions {
  readonly index: string;
  readonly a: Subcorpus;
  /** `rest`: the articles of A's shards that A does not hold (A needs filters or a query). */
  readonly b: Subcorpus | 'rest';
  readonly case?: WordCase | null;
  readonly limit?: number | null;
  readonly min_count?: number | null;
}

export interface KeyWord {
  readonly word: string;
  readonly count_a: number;
  readonly count_b: number;
  readonly per_million_a: number;
  readonly per_million_b: number;
  readonly log_likelihood: number;
  readonly log_ratio: number;
}

export interface SubcorpusTotals {
  readonly tokens: number;
  readonly shard_ids: readonly string[];
  /** The articles sampled when the side was counted past its bound (its counts are then estimates). */
  readonly sample: ArticleSample | null;
}

export interface KeynessResult {
  readonly index_version: string;
  readonly case: WordCase;
  readonly a: SubcorpusTotals;
  readonly b: SubcorpusTotals;
  /** Words relatively more frequent in A, largest log-likelihood first. */
  readonly a_over_b: readonly KeyWord[];
  readonly b_over_a: readonly KeyWord[];
  readonly exact: boolean;
}

export const DEFAULT_KEYNESS_LIMIT = 50;
export const MAX_KEYNESS_LIMIT = 1000;

/** 0 · ln(0 / e) is 0: a word absent from one side still contributes the other side's term. */
const term = (o: number, e: number): number => (o === 0 ? 0 : o * Math.log(o / e));

/**
 * Log-likelihood G² of Rayson & Garside (2000) for a word seen `a` times in `c` tokens and `b` times in `d` tokens:
 * 2 · (a ln(a/E1) + b ln(b/E2)) with E1 = c(a+b)/(c+d), E2 = d(a+b)/(c+d).
 * @example logLikelihood(10, 0, 1000, 1000) // 13.86
 */
export function logLikelihood(a: number, b: number, c: number, d: number): number {
  const n = c + d;
  if (n === 0 || a + b === 0) return 0;
  return 2 * (term(a, (c * (a + b)) / n) + term(b, (d * (a + b)) / n));
}

/**
 * Log ratio of Hardie (2014): log2 of the ratio of relative frequencies, a zero count taken as 0.5 so a word of one
 * side only gets a finite score.
 * @example logRatio(8, 2, 1000, 1000) // 2
 */
export function logRatio(a: number, b: number, c: number, d: number): number {
  if (c === 0 || d === 0) return 0;
  return Math.log2((a === 0 ? 0.5 : a) / c / ((b === 0 ? 0.5 : b) / d));
}

/** Both scores and rates of one word. */
export function keyWord(word: string, a: number, b: number, c: number, d: number): KeyWord {
  return {
    word,
    count_a: a,
    count_b: b,
    per_million_a: c === 0 ? 0 : (a * 1e6) / c,
    per_million_b: d === 0 ? 0 : (b * 1e6) / d,
    log_likelihood: logLikelihood(a, b, c, d),
    log_ratio: logRatio(a, b, c, d),
  };
}

const byKeyness = (x: KeyWord, y: KeyWord): number =>
  y.log_likelihood - x.log_likelihood || (x.word < y.word ? -1 : x.word > y.word ? 1 : 0);

/** Splits scored words into the two directions, each cut to `limit`. */
function rank(
  words: readonly KeyWord[],
  c: number,
  d: number,
  limit: number,
): Pick<KeynessResult, 'a_over_b' | 'b_over_a'> {
  const over = words
    .filter((w) => w.count_a * d > w.count_b * c)
    .sort(byKeyness)
    .slice(0, limit);
  const under = words
    .filter((w) => w.count_a * d < w.count_b * c)
    .sort(byKeyness)
    .slice(0, limit);
  return { a_over_b: over, b_over_a: under };
}

const isExact = (r: ResolvedSubcorpus): boolean => r.kind === 'tables' || r.exact;
const totalsOf = (r: ResolvedSubcorpus): SubcorpusTotals => ({
  tokens: r.tokens,
  shard_ids: r.shards.map((s) => s.shardId),
  sample: r.kind === 'tables' ? null : r.sample,
});

/**
 * Keywords of subcorpus A against B and of B against A, from the word-count tables (whole periods) or the counted
 * articles of a filtered or query subcorpus (B may be `rest`: A's periods minus A): every word of either side is
 * scored (log-likelihood and log ratio, formulas in search-v2/DESIGN.md), words under `min_count` in A and B
 * together left out.
 * @example (await keyness(release, { index: 'news', a: { periods: ['1987-03'] }, b: { periods: ['1987-04'] } })).a_over_b[0]
 */
export async function keyness(
  release: OpenRelease,
  request: KeynessRequest,
  work: WorkBudget = WorkBudget.unlimited(),
  limits: CountLimits = COUNT_LIMITS,
): Promise<KeynessResult> {
  const wordCase = request.case ?? 'sensitive';
  const limit = request.limit ?? DEFAULT_KEYNESS_LIMIT;
  const minCount = request.min_count ?? 1;
  if (typeof request.b === 'string' && request.b !== 'rest')
    throw new V2Error('invalid_subcorpus', `b must be a subcorpus or "rest", not ${JSON.stringify(request.b)}`);
  const subA = await resolveSubcorpus(release, request.index, request.a, wordCase, request, work, limits);
  const subB =
    request.b === 'rest'
      ? restOf(subA, wordCase)
      : await resolveSubcorpus(release, request.index, request.b, wordCase, request, work, limits);
  const c = subA.tokens;
  const d = subB.tokens;
  const A = countsOf(subA, wordCase);
  const B = countsOf(subB, wordCase);
  // Both lists are sorted by word: one walk pairs each word's two counts. Scores go to flat arrays; only the words
  // that can make a list become objects (a ranking of objects of every word took most of the time).
  const words: string[] = [];
  const ca: number[] = [];
  const cb: number[] = [];
  const ll: number[] = [];
  for (let i = 0, j = 0; i < A.words.length || j < B.words.length;) {
    const x = A.words[i];
    const y = B.words[j];
    const word = y === undefined || (x !== undefined && x < y) ? (x as string) : y;
    const a = x === word ? (A.counts[i++] ?? 0) : 0;
    const b = y === word ? (B.counts[j++] ?? 0) : 0;
    if (a + b < minCount) continue;
    words.push(word);
    ca.push(a);
    cb.push(b);
    ll.push(logLikelihood(a, b, c, d));
  }
  const scored: KeyWord[] = [];
  for (const over of [true, false]) {
    const side = ll.map((v, k) =>
      (over ? (ca[k] ?? 0) * d > (cb[k] ?? 0) * c : (ca[k] ?? 0) * d < (cb[k] ?? 0) * c) ? v : -1,
    );
    const sorted = Float64Array.from(side).sort();
    const cut = Math.max(0, sorted[Math.max(0, sorted.length - limit)] ?? 0);
    side.forEach((v, k) => {
      if (v >= cut && v >= 0) scored.push(keyWord(words[k] ?? '', ca[k] ?? 0, cb[k] ?? 0, c, d));
    });
  }
  return {
    index_version: release.indexVersion,
    case: wordCase,
    a: totalsOf(subA),
    b: totalsOf(subB),
    ...rank(scored, c, d, limit),
    exact: isExact(subA) && isExact(subB),
  };
}

/**
 * Answers of disjoint shard sets as one: totals summed and each listed word rescored from its summed counts. A word
 * listed by one part may have unlisted counts in another, so the result is `exact` only when at most one part holds
 * any of the two subcorpora.
 */
export function combineKeyness(
  parts: readonly KeynessResult[],
  ctx: CombineContext,
  body: KeynessRequest,
): KeynessResult {
  const limit = body.limit ?? DEFAULT_KEYNESS_LIMIT;
  const pos = positionIn(ctx.order);
  const totals = (side: 'a' | 'b'): SubcorpusTotals => ({
    tokens: parts.reduce((n, p) => n + p[side].tokens, 0),
    shard_ids: parts.flatMap((p) => p[side].shard_ids).sort((x, y) => pos(x) - pos(y)),
    sample: combineSamples(parts.map((p) => p[side].sample)),
  });
  const a = totals('a');
  const b = totals('b');
  const sums = new Map<string, [number, number]>();
  for (const p of parts) {
    for (const w of [...p.a_over_b, ...p.b_over_a]) {
      const s = sums.get(w.word) ?? [0, 0];
      s[0] += w.count_a;
      s[1] += w.count_b;
      sums.set(w.word, s);
    }
  }
  const scored = [...sums].map(([w, [x, y]]) => keyWord(w, x, y, a.tokens, b.tokens));
  const holding = parts.filter((p) => p.a.tokens + p.b.tokens > 0);
  return {
    index_version: ctx.indexVersion,
    case: parts[0]?.case ?? body.case ?? 'sensitive',
    a,
    b,
    ...rank(scored, a.tokens, b.tokens, limit),
    exact: holding.length <= 1 && holding.every((p) => p.exact),
  };
}
