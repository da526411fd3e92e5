/**
 * Stories past the exact bound (issue 28 item 1 with issue 27's estimates; DESIGN.md, "Stories", estimates): a
 * seeded occurrence sample draws article a of story s with probability k_a / N, so a draw of a matching article
 * weighs N / (n · k_a · m_s), m_s the story's matching articles in the whole selection; each story's weights add to
 * one in expectation (Horvitz–Thompson). m_s and the story's first matching article come from the story's members,
 * counted where their shards are (`countStoryCopies`) and summed over workers (`mergeStoryCopies`).
 */
import type { ShardHandle } from '../../release/types.ts';
import type { WorkBudget } from '../../work-budget/index.ts';
import { crawlPeriodOf } from '../crawl-period.ts';
import { V2Error } from '../errors.ts';
import { wilsonInterval, Z95 } from '../sampling.ts';
import type { Stories } from './story-mode.ts';

/**
 * Articles of the sampled stories (whole-release sizes, summed) one request may test for copies: past it 422
 * `query_too_expensive`. Each is a metadata read and a text search; checked on sizes so every worker refuses alike.
 */
export const STORY_COPIES_ARTICLES = 200_000;

/** One story's matching articles among some shards: how many, and the first in release order (null: none). */
export interface StoryCopyCount {
  readonly story: number;
  readonly copies: number;
  /** Release number of the first matching article. */
  readonly first: number | null;
  /** Crawl period of that article's shard. */
  readonly period: string | null;
}

/** A draw as the estimator sees it: the story of a matching article and its k, or null (fails query or filters). */
export type StoryDraw = { readonly story: number; readonly k: number } | null;

/**
 * Counts, for each story of `ids`, its members in `shards` (the selection's shards this process holds) for which
 * `isMatch(shardIndex, doc)` holds. Members outside these shards (other years, other workers) are not counted here.
 * @example await countStoryCopies(stories, shards, [17], (i, doc) => true, work) // [{ story: 17, copies: 3, … }]
 */
export async function countStoryCopies(
  stories: Stories,
  shards: readonly ShardHandle[],
  ids: readonly number[],
  isMatch: (shard: number, doc: number) => boolean,
  work: WorkBudget,
): Promise<StoryCopyCount[]> {
  const { table, mode } = stories;
  const articles = ids.reduce((n, id) => n + table.sizeOf(id, mode), 0);
  if (articles > STORY_COPIES_ARTICLES) {
    throw new V2Error(
      'query_too_expensive',
      `dedupe past the exact bound tests every article of the sampled stories, ${articles} here (at most ${STORY_COPIES_ARTICLES}); use a smaller sample_size or narrow the years`,
      { limit: STORY_COPIES_ARTICLES },
    );
  }
  const byYear = new Map<string, number[]>();
  shards.forEach((s, i) => byYear.set(s.year, [...(byYear.get(s.year) ?? []), i]));
  const shardOf = (year: string, docIx: number): number | undefined =>
    byYear.get(year)?.find((i) => {
      const s = shards[i] as ShardHandle;
      return s.docBase <= docIx && docIx < s.docBase + s.reader.stats.docCount;
    });
  const out: StoryCopyCount[] = [];
  for (const story of ids) {
    let copies = 0;
    let first: number | null = null;
    let period: string | null = null;
    for (const n of table.membersOf(story, mode)) {
      if (work.due()) await work.pause();
      const at = table.articleAt(n);
      const i = at === undefined ? undefined : shardOf(at.year, at.docIx);
      if (at === undefined || i === undefined) continue;
      const shard = shards[i] as ShardHandle;
      if (!isMatch(i, at.docIx - shard.docBase)) continue;
      copies++;
      // Members come in release order: the first that matches is the story's first here.
      if (first === null) [first, period] = [n, crawlPeriodOf(shard.shardId)];
    }
    out.push({ story, copies, first, period });
  }
  return out;
}

/** The counts of workers holding disjoint shards, per story: copies add up, the earliest first match is the first. */
export function mergeStoryCopies(parts: readonly (readonly StoryCopyCount[])[]): Map<number, StoryCopyCount> {
  const out = new Map<number, StoryCopyCount>();
  for (const part of parts)
    for (const c of part) {
      const seen = out.get(c.story);
      if (seen === undefined) out.set(c.story, c);
      else {
        const later = seen.first === null || (c.first !== null && c.first < seen.first);
        out.set(c.story, { ...(later ? c : seen), copies: seen.copies + c.copies });
      }
    }
  return out;
}

/** The distinct stories of the draws, ascending: what the copies step is asked about. */
export const sampledStoryIds = (draws: readonly StoryDraw[]): number[] =>
  [...new Set(draws.flatMap((d) => (d === null ? [] : [d.story])))].sort((a, b) => a - b);

/** A story whose m_s one worker cannot know (its copies may lie in other workers' shards): its draws' sums here. */
export interface SharedStory {
  readonly story: number;
  /** Σ 1/k over this sample's draws of the story. */
  readonly u: number;
  /** Σ 1/k² over them. */
  readonly v: number;
}

/**
 * One independent sample's sums for the story estimate: x_i = 1/(k_i · m_s) summed (`sum`, `sum_sq`) over the draws
 * of stories whose m_s is known, and the other stories' own sums (`shared`), completed once their m_s is known.
 */
export interface StoryTally {
  /** Draws n. */
  readonly size: number;
  /** Occurrences N the draws are from. */
  readonly population: number;
  readonly sum: number;
  readonly sum_sq: number;
  /** Distinct stories drawn among those summed. */
  readonly seen: number;
  readonly shared: readonly SharedStory[];
}

/**
 * The sums of `draws` (all n of them) over a `population` of N occurrences, with `copies` giving m_s; the stories
 * `isShared` names are kept apart, their m_s to come from every worker.
 */
export function tallyStories(
  draws: readonly StoryDraw[],
  population: number,
  copies: ReadonlyMap<number, StoryCopyCount>,
  isShared: (story: number) => boolean = () => false,
): StoryTally {
  let sum = 0;
  let sumSq = 0;
  const seen = new Set<number>();
  const shared = new Map<number, { story: number; u: number; v: number }>();
  for (const d of draws) {
    if (d === null) continue;
    if (isShared(d.story)) {
      const s = shared.get(d.story) ?? { story: d.story, u: 0, v: 0 };
      s.u += 1 / d.k;
      s.v += 1 / (d.k * d.k);
      shared.set(d.story, s);
      continue;
    }
    seen.add(d.story);
    const x = 1 / (d.k * copiesOf(copies, d.story));
    sum += x;
    sumSq += x * x;
  }
  return {
    size: draws.length,
    population,
    sum,
    sum_sq: sumSq,
    seen: seen.size,
    shared: [...shared.values()].sort((a, b) => a.story - b.story),
  };
}

// The drawn article matches, so m_s ≥ 1; a count that misses it (story files not covering it) is taken as 1.
const copiesOf = (copies: ReadonlyMap<number, { readonly copies: number }>, story: number): number =>
  Math.max(1, copies.get(story)?.copies ?? 1);

/**
 * Stories with a 95% interval from independent samples (workers' samples of disjoint shards, or one sample): per
 * sample N · mean(x) and the normal interval of the mean, the shared stories completed with `copies` (their m_s over
 * all workers); values add and half-widths add in quadrature. Every distinct story drawn exists, so their number
 * floors the value and the interval; a sample with no story drawn has the Wilson upper bound of a rate never observed.
 */
export function estimateFromTallies(
  tallies: readonly StoryTally[],
  copies: ReadonlyMap<number, { readonly copies: number }> = new Map(),
): { value: number; low: number; high: number } {
  let value = 0;
  let below = 0;
  let above = 0;
  let seen = 0;
  const shared = new Set<number>();
  for (const t of tallies) {
    let sum = t.sum;
    let sumSq = t.sum_sq;
    for (const s of t.shared) {
      const m = copiesOf(copies, s.story);
      sum += s.u / m;
      sumSq += s.v / (m * m);
      shared.add(s.story);
    }
    seen += t.seen;
    const n = t.size;
    if (n === 0) continue;
    const mean = sum / n;
    const variance = n > 1 ? Math.max(0, (sumSq - n * mean * mean) / (n - 1)) : 0;
    const half = ((Z95 * Math.sqrt(variance)) / Math.sqrt(n)) * t.population;
    value += mean * t.population;
    below += half * half;
    const upper = t.seen + t.shared.length === 0 ? wilsonInterval(0, n, t.population).high : half;
    above += upper * upper;
  }
  seen += shared.size;
  const point = Math.max(seen, Math.round(value));
  return {
    value: point,
    low: Math.max(seen, Math.floor(value - Math.sqrt(below))),
    high: Math.max(point, Math.ceil(value + Math.sqrt(above))),
  };
}

/** The crawl period a draw counts in: its story's first matching article's (from `copies`); null for no story. */
export function drawPeriod(d: StoryDraw, copies: ReadonlyMap<number, StoryCopyCount>): string | null {
  return d === null ? null : (copies.get(d.story)?.period ?? null);
}

/** Estimated stories with its 95% interval, and point values per crawl period of the stories' first matches. */
export interface StoryEstimate {
  readonly value: number;
  readonly low: number;
  readonly high: number;
  readonly perPeriod: ReadonlyMap<string, number>;
}

/**
 * One sample whose every story's m_s is known (`copies`, merged over workers): the estimate of
 * `estimateFromTallies`, and per crawl period of the stories' first matching articles N · Σ x / n (point values).
 */
export function estimateStories(
  draws: readonly StoryDraw[],
  population: number,
  copies: ReadonlyMap<number, StoryCopyCount>,
): StoryEstimate {
  const periods = new Map<string, number>();
  for (const d of draws) {
    const period = drawPeriod(d, copies);
    if (d === null || period === null) continue;
    periods.set(period, (periods.get(period) ?? 0) + 1 / (d.k * copiesOf(copies, d.story)));
  }
  const n = draws.length;
  return {
    ...estimateFromTallies([tallyStories(draws, population, copies)]),
    perPeriod: new Map([...periods].map(([p, x]) => [p, Math.round((x / n) * population)] as const)),
  };
}
