import type { OpenRelease } from '../release/types.ts';
import { WorkBudget } from '../work-budget/index.ts';
import { FacetCounter } from './facets.ts';
import { V2_LIMITS } from './limits.ts';
import { meanInterval, sampleRanks, wilsonInterval } from './sampling.ts';
import {
  candidateTotal,
  estimateIntervals,
  resolveEstimate,
  type EstimateIntervals,
  type ResolvedDoc,
} from './estimate-parts.ts';
import { estimateStoryCopies } from './estimate-stories.ts';
import {
  estimateStories,
  mergeStoryCopies,
  sampledStoryIds,
  type StoryCopyCount,
  type StoryDraw,
} from './stories/sampled-stories.ts';
import { crawlPeriodOf } from './crawl-period.ts';
import type { EstimatePeriod, EstimateRequest, EstimateResult } from './types.ts';

export { mergeStoryCopies };

/** The seed of a sample when the request gives none (estimate, and the timeline's story sample). */
export const DEFAULT_SEED = 1;

/**
 * Matching occurrences per crawl period of the selected shards, zeros included so a chart's time axis stays whole
 * (parts of a month add up). Exact: each article's occurrences; sampled: each passing draw, scaled by `scale`.
 */
function periodTally(
  plan: EstimateIntervals,
  resolved: readonly ResolvedDoc[],
  isExact: boolean,
  scale: number,
): EstimatePeriod[] {
  const counts = new Map<string, number>();
  for (const id of plan.shard_ids) counts.set(crawlPeriodOf(id), 0);
  for (const d of resolved) {
    if (d.labels === null) continue;
    const p = crawlPeriodOf(d.shard_id);
    counts.set(p, (counts.get(p) ?? 0) + (isExact ? d.n : 1));
  }
  return [...counts].map(([period, n]) => ({ period, occurrences: Math.round(n * scale) }));
}

/**
 * Distinct stories of the passing articles (exact mode: one entry per article), each counted in the crawl period of
 * its first matching article in release order (year, then doc_ix).
 */
function storyPeriods(resolved: readonly ResolvedDoc[]): { total: number; perPeriod: Map<string, number> } {
  const first = new Map<number, { year: string; ix: number; period: string }>();
  for (const d of resolved) {
    if (d.labels === null || d.story === undefined) continue;
    const [year = '', ix = '0'] = d.key.split(':');
    const at = { year, ix: Number(ix), period: crawlPeriodOf(d.shard_id) };
    const seen = first.get(d.story);
    if (seen === undefined || at.year < seen.year || (at.year === seen.year && at.ix < seen.ix)) first.set(d.story, at);
  }
  const perPeriod = new Map<string, number>();
  for (const { period } of first.values()) perPeriod.set(period, (perPeriod.get(period) ?? 0) + 1);
  return { total: first.size, perPeriod };
}

/** Exact mode (every rank) when the intervals hold at most this many ranks; else the draws to resolve, in order. */
export function estimateDraws(
  request: EstimateRequest,
  plan: EstimateIntervals,
  exactRanks: number = V2_LIMITS.estimateExactRanks,
): (readonly [string, number])[] | null {
  const total = candidateTotal(plan);
  if (total <= exactRanks) return null;
  const size = request.sample_size ?? V2_LIMITS.estimateSampleDefault;
  return sampleRanks(
    plan.intervals.map(([, lo, hi]) => [lo, hi] as const),
    size,
    request.seed ?? DEFAULT_SEED,
  ).map(({ shard, rank }) => [(plan.intervals[shard] as readonly [string, number, number])[0], rank] as const);
}

/** With dedupe past the bound: the draws as the story estimator sees them, and the stories to count copies of. */
export function storyDraws(resolved: readonly ResolvedDoc[]): StoryDraw[] {
  return resolved.map((d) => (d.labels === null || d.story === undefined ? null : { story: d.story, k: d.n }));
}

/** The sampled stories' ids when the request has dedupe and was sampled (the copies step asks about them), else null. */
export function storiesToCount(
  request: EstimateRequest,
  draws: readonly unknown[] | null,
  resolved: readonly ResolvedDoc[],
): number[] | null {
  if (draws === null || (request.dedupe !== 'exact' && request.dedupe !== 'near')) return null;
  return sampledStoryIds(storyDraws(resolved));
}

/**
 * Step 4: the answer from the intervals and the resolved articles (exact, in first-seen order) or draws (sampled,
 * in draw order). Exact: sums. Sampled: Wilson interval for occurrences, Horvitz–Thompson with a normal interval for
 * articles (an article with k occurrences is drawn k times as often, so each draw of it counts 1/k) and, with
 * dedupe, for stories from the sampled stories' `copies` (step 3, merged over workers; `estimateStories`).
 */
export function combineEstimate(
  indexVersion: string,
  request: EstimateRequest,
  plan: EstimateIntervals,
  resolved: readonly ResolvedDoc[],
  copies: ReadonlyMap<number, StoryCopyCount> = new Map(),
  exactRanks: number = V2_LIMITS.estimateExactRanks,
): EstimateResult {
  const total = candidateTotal(plan);
  const isExact = total <= exactRanks;
  const size = request.sample_size ?? V2_LIMITS.estimateSampleDefault;
  const facets = new FacetCounter(plan.facet_fields);
  const dedupe = request.dedupe === 'exact' || request.dedupe === 'near';
  const stories = !dedupe
    ? undefined
    : isExact
      ? storyPeriods(resolved)
      : estimateStories(storyDraws(resolved), total, copies);
  let occurrences: EstimateResult['matching_occurrences'];
  let articles: EstimateResult['matching_articles'];
  if (isExact) {
    let occ = 0;
    let arts = 0;
    for (const d of resolved) {
      if (d.labels === null) continue;
      occ += d.n;
      arts++;
      facets.add(d.labels, d.n, 1);
    }
    occurrences = { value: occ, low: occ, high: occ };
    articles = { value: arts, low: arts, high: arts };
  } else {
    let hits = 0;
    const seen = new Set<string>();
    const shares = resolved.map((d) => {
      if (d.labels === null) return 0;
      hits++;
      seen.add(d.key);
      facets.add(d.labels, 1, 1 / d.n);
      return 1 / d.n;
    });
    const n = resolved.length;
    const occ = wilsonInterval(hits, n, total);
    const art = meanInterval(shares, total);
    // Every distinct matching article seen in the sample certainly exists.
    occurrences = {
      value: Math.round((hits / n) * total),
      low: Math.max(hits, Math.floor(occ.low)),
      high: Math.ceil(occ.high),
    };
    articles = {
      value: Math.max(seen.size, Math.round(art.value)),
      low: Math.max(seen.size, Math.floor(art.low)),
      high: Math.max(seen.size, Math.ceil(art.high)),
    };
  }
  return {
    index_version: indexVersion,
    query: request.query,
    mode: isExact ? 'exact' : 'sampled',
    total_occurrences: total,
    resolved_ranks: isExact ? total : size,
    seed: request.seed ?? DEFAULT_SEED,
    confidence: 0.95,
    matching_occurrences: occurrences,
    matching_articles: articles,
    ...(stories === undefined
      ? {}
      : {
          matching_stories:
            'total' in stories
              ? { value: stories.total, low: stories.total, high: stories.total }
              : { value: stories.value, low: stories.low, high: stories.high },
        }),
    facets: facets.top(V2_LIMITS.facetValues, isExact ? 1 : total / size),
    periods: periodTally(plan, resolved, isExact, isExact ? 1 : total / size).map((p) =>
      stories === undefined ? p : { ...p, stories: stories.perPeriod.get(p.period) ?? 0 },
    ),
  };
}

/**
 * v2 estimate: how many occurrences and articles of a query pass the metadata filters, with facet counts of the
 * matching articles (and, with dedupe, stories). Exact (every rank resolved) when the query has at most 20,000
 * occurrences in the selected years (`exactRanks`, smaller in tests); otherwise estimated from a seeded uniform
 * sample of ranks with 95% intervals. Facets of a sample are scaled to the population. The same steps run across
 * workers (estimate-parts.ts, estimate-stories.ts).
 *
 * @example (await estimate(release, { index: 'news', query: 'the', languages: ['ja'] })).matching_articles // { value, low, high }
 */
export async function estimate(
  release: OpenRelease,
  request: EstimateRequest,
  work: WorkBudget = WorkBudget.unlimited(),
  exactRanks: number = V2_LIMITS.estimateExactRanks,
): Promise<EstimateResult> {
  const plan = estimateIntervals(release, request, work);
  const draws = estimateDraws(request, plan, exactRanks);
  const resolved = await resolveEstimate(release, request, draws, work);
  const ids = storiesToCount(request, draws, resolved);
  const copies = ids === null ? [] : await estimateStoryCopies(release, request, ids, work);
  return combineEstimate(release.indexVersion, request, plan, resolved, mergeStoryCopies([copies]), exactRanks);
}
