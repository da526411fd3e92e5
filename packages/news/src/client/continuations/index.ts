/** "What follows / what precedes": a phrase's continuations, each extending the phrase (issue 29). */
export { ContinuationsPanel, type ContinuationsContext } from './continuations-panel.ts';
export { extendPhrase, type Direction } from './extend-phrase.ts';
