/** Per-shard word-count tables (release/DESIGN.md, "Word-count tables"): the format, and their writing during a build. */
export {
  decodeWordCounts,
  encodeWordCounts,
  tableOfCounts,
  WordCountsFormatError,
  WORD_COUNTS_FORMAT_VERSION,
  type WordCountTable,
} from './format.ts';
export { addWords } from './count-text.ts';
export { ShardWordTables, WORD_COUNT_FLOOR, type WordCountsEntry } from './shard-tables.ts';
