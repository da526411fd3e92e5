/** Collocations of a query: the words around its occurrences with association scores. */
export {
  collocations,
  combineCollocations,
  type CollocationsRequestWire,
  type CollocationsResult,
} from './collocations.ts';
export { scoresOf, type Frequencies, type Scores } from './scores.ts';
export { filteredFrequencies, type FrequencyPath } from './filtered-frequency.ts';
