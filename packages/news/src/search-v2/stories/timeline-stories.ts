import type { ShardHandle } from '../../release/types.ts';
import { ranksIn } from '../../matching/index.ts';
import type { WorkBudget } from '../../work-budget/index.ts';
import { V2Error } from '../errors.ts';
import type { RequestMatcher } from '../matching.ts';
import type { TimelineResult } from '../types.ts';
import { coveredSpans, StoryFirsts } from './first-matches.ts';
import type { Stories } from './story-mode.ts';

/** Occurrences a timeline with `dedupe` locates to their articles, over all its shards (~1 s on the SA kind). */
export const STORY_TIMELINE_OCCURRENCES = 1_000_000;

/** A timeline's story counts: per period, and the ids another worker's answer may share (see `StoryFirsts.spanning`). */
export interface TimelineStories {
  readonly perPeriod: ReadonlyMap<string, number>;
  readonly spanning: ReadonlyMap<string, readonly number[]>;
}

/**
 * Locates every occurrence that counts in `shards` (the selection's, on this worker) to its article and counts the
 * distinct stories per period of their first matching article. Past STORY_TIMELINE_OCCURRENCES candidates the
 * timeline estimates instead (timeline-sampled.ts) and never calls this; the 422 `query_too_expensive` here guards
 * any other caller against locating without bound.
 */
export async function timelineStories(
  stories: Stories,
  shards: readonly ShardHandle[],
  matcher: RequestMatcher,
  selection: { readonly year_min?: number | null; readonly year_max?: number | null },
  work: WorkBudget,
): Promise<TimelineStories> {
  const candidates = shards.reduce((n, s) => n + ranksIn(matcher.match(s).intervals), 0);
  if (candidates > STORY_TIMELINE_OCCURRENCES) {
    throw new V2Error(
      'query_too_expensive',
      `dedupe on timeline locates every occurrence to its article, and the query has ${candidates} in the selected years (at most ${STORY_TIMELINE_OCCURRENCES}); narrow the years or use a rarer phrase`,
      { limit: STORY_TIMELINE_OCCURRENCES },
    );
  }
  const firsts = new StoryFirsts(stories);
  for (const shard of shards) {
    const m = matcher.match(shard);
    for (const iv of m.intervals) {
      for (let rank = iv.lo; rank < iv.hi; rank++) {
        if (work.due()) await work.pause();
        if (m.counts(rank)) firsts.add(shard, shard.reader.locate(rank).doc);
      }
    }
  }
  const selected = stories.table.spanOfYears(selection.year_min ?? null, selection.year_max ?? null);
  return { perPeriod: firsts.perPeriod(), spanning: firsts.spanning(selected, coveredSpans(stories, shards)) };
}

/**
 * Story counts of timeline answers for disjoint shard sets: per period the parts' counts, less one for each
 * spanning story already counted by another part in this or an earlier period (chronological `periods`).
 * Undefined when no part counted stories. The merged answer covers the whole selection, so it lists no ids.
 */
export function mergeTimelineStories(
  parts: readonly TimelineResult[],
  periods: readonly string[],
): ReadonlyMap<string, number> | undefined {
  if (parts.every((p) => p.total_stories === undefined)) return undefined;
  const counts = new Map<string, number>();
  const ids = new Map<string, number[]>();
  for (const p of parts) {
    for (const t of p.periods) {
      counts.set(t.period, (counts.get(t.period) ?? 0) + (t.stories ?? 0));
      if (t.spanning_stories !== undefined) ids.set(t.period, [...(ids.get(t.period) ?? []), ...t.spanning_stories]);
    }
  }
  const seen = new Set<number>();
  for (const period of periods) {
    for (const id of ids.get(period) ?? []) {
      if (seen.has(id)) counts.set(period, (counts.get(period) ?? 0) - 1);
      else seen.add(id);
    }
  }
  return counts;
}
