export { clusterStories, LSH_BANDS, LSH_ROWS, NEAR_THRESHOLD, type StoryInput, type Stories } from './cluster.ts';
export { estimateSimilarity, signText, createSignScratch, SHINGLE_WORDS, SIGNATURE_SLOTS } from './signature.ts';
export { StoryCollector, type YearStories } from './story-collector.ts';
export {
  readStoryFile,
  writeStoryFile,
  StoryFileError,
  STORY_FILE_FORMAT_VERSION,
  type StoryFile,
} from './story-file.ts';
export { StoryTable, type ReleaseSpan, type StoryMode } from './story-table.ts';
