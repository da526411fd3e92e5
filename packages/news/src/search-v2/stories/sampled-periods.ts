/**
 * Stories past the exact bound per crawl period (the timeline's, DESIGN.md "Stories past the exact bound"): the
 * estimator of `estimateFromTallies` restricted to the draws whose story's first matching article is in the period,
 * so each period gets its own 95% interval. Period sums add up to the total's sum before rounding.
 *
 * A period is often a small share of the draws, and the normal interval of a sparse, right-skewed mean misses above
 * the truth far more than 5% (a story whose only article holds one occurrence is rarely drawn; measured on the real
 * corpora: up to 15 of 100 seeds). Each x lies in [0, 1], so its variance is at most μ(1 − μ): the Wilson upper
 * bound of Σx successes in n draws is a valid upper end, and a period's upper end is the larger of the two.
 */
import { wilsonInterval } from '../sampling.ts';
import {
  drawPeriod,
  estimateFromTallies,
  tallyStories,
  type StoryCopyCount,
  type StoryDraw,
} from './sampled-stories.ts';

/** A count with its 95% interval, as `estimateFromTallies` gives it. */
export type EstimatedCount = ReturnType<typeof estimateFromTallies>;

/** Estimated stories in total and per listed period, each with its 95% interval. */
export interface StoryPeriodEstimate {
  readonly total: EstimatedCount;
  readonly perPeriod: ReadonlyMap<string, EstimatedCount>;
}

/**
 * One sample (every story's m_s and first period known: `copies`, merged over workers) as the total and, for each
 * of `periods`, N · mean(x_p) with x_p = x for a draw of a story first matched in p and 0 otherwise (all n draws
 * count in the mean), its upper end at least the Wilson bound of Σx_p. A period no draw reaches answers 0 with the
 * Wilson upper bound of a rate never observed.
 * @example estimateStoryPeriods(draws, 2_000_000, copies, ['1987-03']).perPeriod.get('1987-03') // { value, low, high }
 */
export function estimateStoryPeriods(
  draws: readonly StoryDraw[],
  population: number,
  copies: ReadonlyMap<number, StoryCopyCount>,
  periods: readonly string[],
): StoryPeriodEstimate {
  const byPeriod = new Map<string, StoryDraw[]>(periods.map((p) => [p, []]));
  for (const d of draws) {
    const period = drawPeriod(d, copies);
    if (period !== null) byPeriod.get(period)?.push(d);
  }
  // A period's tally holds only its own draws; the mean is still over all n draws of the sample.
  const perPeriod = new Map(
    [...byPeriod].map(([p, own]) => {
      const tally = { ...tallyStories(own, population, copies), size: draws.length };
      const e = estimateFromTallies([tally]);
      const wilson = Math.ceil(wilsonInterval(tally.sum, tally.size, population).high);
      return [p, { ...e, high: Math.max(e.high, wilson) }] as const;
    }),
  );
  return { total: estimateFromTallies([tallyStories(draws, population, copies)]), perPeriod };
}
