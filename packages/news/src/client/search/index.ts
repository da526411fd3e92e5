/** Search logic of the page: URL state, examination plan (≤ 1,000 ranks per step), merging pages into articles. */
export * from './url-state.ts';
export * from './examine-plan.ts';
export * from './article-merge.ts';
export { SearchSession } from './search-session.ts';
export * from './snippet.ts';
export * from './matching-options.ts';
