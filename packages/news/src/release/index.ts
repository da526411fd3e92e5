export { buildRelease } from './build-release.ts';
export {
  defaultBuildOptions,
  type BuildPhase,
  type BuildProgress,
  type BuildReleaseInput,
  type BuildReleaseOptions,
  type BuildSummary,
  type ShardPeriod,
} from './build-options.ts';
export { MAX_PARTS_PER_PERIOD, defaultMemoryBytes, partShardId, type IndexPlan } from './part-plan.ts';
export { openRelease, defaultOpenReleaseOptions, type OpenReleaseOptions } from './open-release.ts';
export {
  checkReleaseDigests,
  type DigestCheckOptions,
  type DigestCheckProgress,
  type DigestCheckSummary,
  type ShardDamage,
} from './digest-check.ts';
export { BuildError, ReleaseVerificationError, type BuildErrorCode, type ReleaseVerificationCode } from './errors.ts';
export {
  INDEX_MANIFEST_FILE,
  METADATA_MANIFEST_FILE,
  shardRelDir,
  yearStoreRelPath,
  countriesRelPath,
} from './layout.ts';
export { MANIFEST_FORMAT_VERSION, type IndexManifest, type MetadataManifest } from './manifest.ts';
export type {
  ArticleMetadata,
  DocIx,
  IndexVersion,
  MetadataStore,
  OpenRelease,
  ReleaseIndex,
  ShardHandle,
  ShardId,
  ShardWordCountsRef,
} from './types.ts';
export {
  addWords,
  decodeWordCounts,
  encodeWordCounts,
  tableOfCounts,
  WordCountsFormatError,
  WORD_COUNT_FLOOR,
  type WordCountTable,
} from './word-counts/index.ts';
export {
  assembleRelease,
  defaultAssembleOptions,
  parsePeriodSelection,
  PART_MANIFEST_FILE,
  PART_MANIFEST_FORMAT_VERSION,
  type AssemblePhase,
  type AssembleProgress,
  type AssembleReleaseInput,
  type AssembleSummary,
  type PartManifest,
  type PeriodSelection,
} from './distributed/index.ts';
