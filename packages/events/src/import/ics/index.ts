export {
  importIcs,
  defaultIcsImportOptions,
  type IcsImportOptions,
  type IcsImportReport,
  type IcsImportDeps,
} from './ics-import.ts';
export { IcsImportError, type ItemProblem, type IcsErrorKind } from './ics-error.ts';
export { DEFAULT_ICS_LIMITS, type IcsLimits } from './ics-file.ts';
export { readFeedSource, isFeedUrl, feedUrl, type FeedSourceOptions } from './feed-source.ts';
