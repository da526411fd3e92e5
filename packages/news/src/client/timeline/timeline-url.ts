import {
  MAX_PHRASES,
  SMOOTHING_SPANS,
  TIMELINE_MEASURES,
  type SmoothingSpan,
  type TimelineMeasure,
} from './timeline-data.ts';

/** The timeline's own part of the URL: the measure and the compared phrases, so a shared link shows the same chart. */
export interface TimelineView {
  readonly measure: TimelineMeasure;
  /** Compared phrases besides the search's own, in the order they were added. */
  readonly compare: readonly string[];
  /** Moving-average span (1: none); URL key `smooth`. */
  readonly smoothing: SmoothingSpan;
}

export const DEFAULT_MEASURE: TimelineMeasure = 'per_million_bytes';
/** The longest phrase the compare box takes (the search box's limit). */
export const MAX_COMPARE_LENGTH = 10_000;

/**
 * Reads `measure` (one of the measures; anything else means the default) and every `compare` (blank, repeated and
 * overlong ones dropped; at most four, as the chart holds five phrases with the search's own).
 * @example parseTimelineView('?q=oil&measure=raw&compare=gas').compare // ['gas']
 */
export function parseTimelineView(search: string): TimelineView {
  const p = new URLSearchParams(search);
  const raw = p.get('measure');
  const measure = TIMELINE_MEASURES.find((m) => m === raw) ?? DEFAULT_MEASURE;
  const compare = [...new Set(p.getAll('compare'))]
    .filter((c) => c.trim() !== '' && c.length <= MAX_COMPARE_LENGTH)
    .slice(0, MAX_PHRASES - 1);
  const smoothing = SMOOTHING_SPANS.find((n) => String(n) === p.get('smooth')) ?? 1;
  return { measure, compare, smoothing };
}

/** `search` with the timeline's keys replaced by `view` (the default measure and no phrases leave no key). */
export function writeTimelineView(search: string, view: TimelineView): string {
  const p = new URLSearchParams(search);
  p.delete('measure');
  p.delete('compare');
  p.delete('smooth');
  if (view.measure !== DEFAULT_MEASURE) p.set('measure', view.measure);
  if (view.smoothing > 1) p.set('smooth', String(view.smoothing));
  for (const c of view.compare) p.append('compare', c);
  return p.toString();
}
