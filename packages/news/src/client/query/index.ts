export { ignoreCapitalsOffer, runQuerySearch, QUERY_PAGE_SIZE, type QueryViewContext } from './query-view.ts';
export { trimmedPhrase, usesQueryLanguage } from './query-syntax.ts';
export { requestFirstCards, showFirstCards, type FirstCards } from './first-cards.ts';
