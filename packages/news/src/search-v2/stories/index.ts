export { storiesOf, type Dedupe, type Stories } from './story-mode.ts';
export { StoryFirsts, coveredSpans, leavesCovered } from './first-matches.ts';
export {
  mergeTimelineStories,
  timelineStories,
  STORY_TIMELINE_OCCURRENCES,
  type TimelineStories,
} from './timeline-stories.ts';
