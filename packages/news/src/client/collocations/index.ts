/** The collocations tab: the words around a phrase's occurrences with association scores (issue 29). */
export { CollocationsPanel, type CollocationsContext } from './collocations-panel.ts';
export { barShare, windowSides, type CollocationWindow } from './collocation-options.ts';
