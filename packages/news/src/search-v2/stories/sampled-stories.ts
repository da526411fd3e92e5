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
import { meanInterval, wilsonInterval } from '../sampling.ts';
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

/** Estimated stories with its 95% interval, and point values per crawl period of the stories' first matches. */
export interface StoryEstimate {
  readonly value: number;
  readonly low: number;
  readonly high: number;
  readonly perPeriod: ReadonlyMap<string, number>;
}

/**
 * Horvitz–Thompson over the draws (all n of them, in any order) of a `population` of N occurrences: x_i = 1 /
 * (k_i · m_s), stories ≈ N · mean(x), normal 95% interval of the mean. Every distinct story drawn exists, so it floors
 * the value and the interval; with none drawn the upper end is the Wilson bound of a rate never observed.
 */
export function estimateStories(
  draws: readonly StoryDraw[],
  population: number,
  copies: ReadonlyMap<number, StoryCopyCount>,
): StoryEstimate {
  const seen = new Set<number>();
  const periods = new Map<string, number>();
  const shares = draws.map((d) => {
    if (d === null) return 0;
    seen.add(d.story);
    const c = copies.get(d.story);
    // The drawn article matches, so m_s ≥ 1; a count that misses it (story files not covering it) is taken as 1.
    const x = 1 / (d.k * Math.max(1, c?.copies ?? 1));
    const period = c?.period ?? null;
    if (period !== null) periods.set(period, (periods.get(period) ?? 0) + x);
    return x;
  });
  const n = draws.length;
  const e = meanInterval(shares, population);
  const value = Math.max(seen.size, Math.round(e.value));
  const high = seen.size === 0 ? wilsonInterval(0, n, population).high : e.high;
  const perPeriod = new Map([...periods].map(([p, x]) => [p, Math.round((x / n) * population)] as const));
  return {
    value,
    low: Math.max(seen.size, Math.floor(e.low)),
    high: Math.max(value, Math.ceil(high)),
    perPeriod,
  };
}
