/** Timeline of a search: occurrences per crawl period, normalised, for up to five phrases (pure data, SVG, panel). */
export {
  formatMeasure,
  measureLabel,
  measureValue,
  timelineChart,
  timelineTicks,
  MAX_PHRASES,
  TIMELINE_MEASURES,
} from './timeline-data.ts';
export type { TimelineChart, TimelineMeasure, TimelinePoint, TimelineSeries } from './timeline-data.ts';
export { TimelinePanel, type TimelineContext } from './timeline-panel.ts';
export { parseTimelineView, writeTimelineView, type TimelineView } from './timeline-url.ts';
