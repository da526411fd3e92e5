/**
 * A timeline with `dedupe` past the story bound (DESIGN.md, "Stories past the exact bound"): the counts as without
 * dedupe (exact), and the stories estimated by the estimate's own steps over the same selection — intervals, seeded
 * draws, draws resolved to articles and stories, the sampled stories' copies — then weighed per period of each
 * story's first match (`estimateStoryPeriods`). One worker runs the steps here; the gateway runs them across workers
 * (gateway/cluster/timeline-split.ts) and finishes with the same `withSampledStories`, so the answers are equal.
 */
import type { OpenRelease } from '../release/types.ts';
import type { WorkBudget } from '../work-budget/index.ts';
import {
  candidateTotal,
  estimateIntervals,
  resolveEstimate,
  type EstimateIntervals,
  type ResolvedDoc,
} from './estimate-parts.ts';
import { estimateStoryCopies } from './estimate-stories.ts';
import { DEFAULT_SEED, estimateDraws, storiesToCount, storyDraws } from './estimate.ts';
import { mergeStoryCopies, type StoryCopyCount } from './stories/sampled-stories.ts';
import { estimateStoryPeriods } from './stories/sampled-periods.ts';
import { STORY_TIMELINE_OCCURRENCES } from './stories/timeline-stories.ts';
import type { EstimateRequest, TimelineRequest, TimelineResult } from './types.ts';

/** The estimate request the story sample is drawn for: the timeline's selection, query, matching, dedupe and sample. */
export function storySampleRequest(request: TimelineRequest): EstimateRequest {
  const { share: _share, ...sample } = request;
  return sample;
}

/** The timeline request whose answer carries the counts only (the stories come from the sample). */
export const countsOnly = (request: TimelineRequest): TimelineRequest => ({ ...request, dedupe: 'none' });

/** The draws of the story sample, or null when the plan's candidates are within the exact bound. */
export const storySampleDraws = (
  request: TimelineRequest,
  plan: EstimateIntervals,
  bound: number = STORY_TIMELINE_OCCURRENCES,
): (readonly [string, number])[] | null => estimateDraws(storySampleRequest(request), plan, bound);

/**
 * The counts' answer with `total_stories` and each period's `stories`, their 95% intervals, `stories_exact: false`
 * and the sample stated (`stories_sample`), from the resolved draws and the sampled stories' copies (merged).
 */
export function withSampledStories(
  counts: TimelineResult,
  request: TimelineRequest,
  plan: EstimateIntervals,
  resolved: readonly ResolvedDoc[],
  copies: ReadonlyMap<number, StoryCopyCount>,
): TimelineResult {
  const population = candidateTotal(plan);
  const est = estimateStoryPeriods(
    storyDraws(resolved),
    population,
    copies,
    counts.periods.map((t) => t.period),
  );
  return {
    ...counts,
    total_stories: est.total.value,
    total_stories_interval: { low: est.total.low, high: est.total.high },
    stories_exact: false,
    stories_sample: {
      size: resolved.length,
      seed: request.seed ?? DEFAULT_SEED,
      occurrences: population,
      confidence: 0.95,
    },
    periods: counts.periods.map((t) => {
      const e = est.perPeriod.get(t.period) ?? { value: 0, low: 0, high: 0 };
      return { ...t, stories: e.value, stories_interval: { low: e.low, high: e.high } };
    }),
  };
}

/**
 * One process's timeline of `request` past the bound over its shards: `counts` (the timeline without dedupe) and
 * the estimate's steps 1–3 here. Null when the candidates are within `bound` (the caller counts exactly; tests
 * force the bound low).
 */
export async function sampledTimeline(
  release: OpenRelease,
  request: TimelineRequest,
  work: WorkBudget,
  counts: (request: TimelineRequest) => Promise<TimelineResult>,
  bound: number = STORY_TIMELINE_OCCURRENCES,
): Promise<TimelineResult | null> {
  const sample = storySampleRequest(request);
  const plan = estimateIntervals(release, sample, work);
  const draws = storySampleDraws(request, plan, bound);
  if (draws === null) return null;
  const answer = await counts(countsOnly(request));
  const resolved = await resolveEstimate(release, sample, draws, work);
  const ids = storiesToCount(sample, draws, resolved) ?? [];
  const copies = ids.length === 0 ? [] : await estimateStoryCopies(release, sample, ids, work);
  return withSampledStories(answer, request, plan, resolved, mergeStoryCopies([copies]));
}
