/** The key-words tab: two subcorpora of crawl periods and the words key to each (issue 29). */
export { KeynessPanel, type KeynessContext } from './keyness-panel.ts';
export { periodsOfShards, rangePeriods, type PeriodRange } from './period-range.ts';
