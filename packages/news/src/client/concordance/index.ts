/** The concordance (KWIC) tab: paging over find's intervals, sorting by context words, the article reader. */
export { CONCORDANCE_PAGE, concordancePage, concordanceSize, type ContextsSlice } from './concordance-pages.ts';
export { sortLines, sortKey, words, type ConcordanceOrder } from './concordance-sort.ts';
export { ConcordancePanel, type ConcordanceContext } from './concordance-panel.ts';
export { loadFirstContexts } from './first-contexts.ts';
export { openArticle, occurrenceHash, parseOccurrenceHash, type ReaderContext } from './article-reader.ts';
