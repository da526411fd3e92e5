/**
 * Search past its exact bound (DESIGN.md, "Query language", estimates): a seeded uniform sample of the driver
 * occurrences of all selected shards, each drawn article verified, and Horvitz–Thompson estimates of matching
 * articles with 95% intervals, the same arithmetic as `estimate` (sampling.ts).
 */
import { countInArticle } from '../../matching/index.ts';
import { meanInterval, sampleRanks, wilsonInterval } from '../sampling.ts';
import type { QueryNode } from './ast.ts';
import { fieldReader } from './fields.ts';
import { verifyArticle, type ArticleMatch, type QueryBudget } from './evaluate.ts';
import type { ShardPlan } from './plan.ts';
import type { SearchInterval } from './types.ts';

/** One draw: its shard (index into the plans), its article, the verdict (null: fails a filter or the query), and k. */
export interface SampledDraw {
  readonly shard: number;
  readonly doc: number;
  readonly match: ArticleMatch | null;
  /** Driver occurrences in the article: it is drawn k times as often as an article with one. */
  readonly k: number;
}

/**
 * Draws `size` driver occurrences uniformly (with replacement) over every plan's intervals and verifies each drawn
 * article once (a repeated article reuses its verdict; the verified-bytes bound counts each article once).
 */
export async function sampleArticles(
  plans: readonly ShardPlan[],
  tree: QueryNode,
  size: number,
  seed: number,
  budget: QueryBudget,
  keep: (shard: number, doc: number) => boolean,
): Promise<SampledDraw[]> {
  const flat = plans.flatMap((p, shard) => p.intervals.map(([lo, hi, field]) => ({ shard, lo, hi, field })));
  const verdicts = new Map<string, Omit<SampledDraw, 'shard' | 'doc'>>();
  const out: SampledDraw[] = [];
  for (const draw of sampleRanks(
    flat.map((f) => [f.lo, f.hi] as const),
    size,
    seed,
  )) {
    if (budget.work.due()) await budget.work.pause();
    const { shard, field } = flat[draw.shard] as (typeof flat)[number];
    const plan = plans[shard] as ShardPlan;
    // A headline's document number is its article's.
    const doc = fieldReader(plan.shard, field).locate(draw.rank).doc;
    const key = `${shard}:${doc}`;
    let v = verdicts.get(key);
    if (v === undefined) {
      const match = keep(shard, doc) ? verifyArticle(plan, tree, doc, budget) : null;
      // k matters only for a match; it is at least 1 (the drawn occurrence).
      const k = match === null ? 1 : driverOccurrences(plan, doc);
      verdicts.set(key, (v = { match, k }));
    }
    out.push({ shard, doc, ...v });
  }
  return out;
}

/** The article's occurrences of the drivers' spellings, each counted in its field (article text or headline). */
function driverOccurrences(plan: ShardPlan, doc: number): number {
  let k = 0;
  for (const field of new Set(plan.driverSpellings.map(([, f]) => f))) {
    const spellings = plan.driverSpellings.filter(([, f]) => f === field).map(([s]) => s);
    k += countInArticle(fieldReader(plan.shard, field).documentBytes(doc), spellings, false);
  }
  return k;
}

/**
 * Matching articles among the draws `inGroup` keeps (a shard, a period, all), estimated over the `population` of
 * driver occurrences, `groupPopulation` of them in the group: each draw of a matching article counts 1/k. Every
 * distinct match seen certainly exists, so it bounds the value and the interval from below; the group cannot hold
 * more matches than driver occurrences, and with no match drawn the normal interval would collapse to [0, 0], so
 * the upper end is then the Wilson bound of a rate never observed (a matching article is drawn at least once per
 * D draws' worth of its occurrences).
 */
export function estimateArticles(
  draws: readonly SampledDraw[],
  population: number,
  groupPopulation: number,
  inGroup: (d: SampledDraw) => boolean,
): { value: number } & SearchInterval {
  const seen = new Set<string>();
  const shares = draws.map((d) => {
    if (d.match === null || !inGroup(d)) return 0;
    seen.add(`${d.shard}:${d.doc}`);
    return 1 / d.k;
  });
  const e = meanInterval(shares, population);
  const value = Math.max(seen.size, Math.round(e.value));
  const high = seen.size === 0 ? wilsonInterval(0, draws.length, population).high : e.high;
  return {
    value,
    low: Math.max(seen.size, Math.floor(e.low)),
    high: Math.max(value, Math.min(groupPopulation, Math.ceil(high))),
  };
}

/**
 * The interval of a sum of independent estimates (workers' samples of disjoint shards; exact parts have zero
 * width): variances add, so each side's half-width is the root of the sum of the parts' squared half-widths.
 */
export function sumIntervals(parts: readonly ({ value: number } & SearchInterval)[]): SearchInterval {
  let value = 0;
  let below = 0;
  let above = 0;
  for (const p of parts) {
    value += p.value;
    below += (p.value - p.low) ** 2;
    above += (p.high - p.value) ** 2;
  }
  return { low: Math.max(0, Math.floor(value - Math.sqrt(below))), high: Math.ceil(value + Math.sqrt(above)) };
}

/** The seed of one worker's sample: the request's, mixed with the shards it samples so workers draw independently. */
export function sampleSeed(seed: number, shardIds: readonly string[]): number {
  let h = 2_166_136_261;
  for (const c of shardIds.join(',')) h = Math.imul(h ^ (c.codePointAt(0) as number), 16_777_619) >>> 0;
  return (seed ^ h) >>> 0;
}
