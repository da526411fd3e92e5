import { MAX_PHRASES, TIMELINE_MEASURES, type TimelineMeasure } from './timeline-data.ts';

/** The timeline's own part of the URL: the measure and the compared phrases, so a shared link shows the same chart. */
export interface TimelineView {
  readonly measure: TimelineMeasure;
  /** Compared phrases besides the search's own, in the order they were added. */
  readonly compare: readonly string[];
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
  return { measure, compare };
}

/** `search` with the timeline's keys replaced by `view` (the default measure and no phrases leave no key). */
export function writeTimelineView(search: string, view: TimelineView): string {
  const p = new URLSearchParams(search);
  p.delete('measure');
  p.delete('compare');
  if (view.measure !== DEFAULT_MEASURE) p.set('measure', view.measure);
  for (const c of view.compare) p.append('compare', c);
  return p.toString();
}
