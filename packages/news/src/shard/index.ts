/**
 * The shard: one crawl period's articles (or one part of it) and an index over them, in one of the registered index
 * kinds (kinds.ts): suffix array (`sa/`) or compressed FM-index (`compressed/`). Write with createShardWriter, index
 * with `indexKind(name).index`, check with verifyShardFiles, read with openShard. See DESIGN.md.
 */
export { createShardWriter } from './writer.ts';
export { verifyShardFiles } from './verify.ts';
export { openShard } from './open.ts';
export { indexShard } from './sa/indexer.ts';
export { buildShardInMemory } from './sa/open.ts';
export { SHARD_FORMAT_VERSION } from './sa/format.ts';
export { indexCompressedShard } from './compressed/indexer.ts';
export {
  SHARD_KINDS,
  indexKind,
  indexKinds,
  isShardKind,
  kindOfShard,
  readableShardFormatVersions,
  shardFormatVersionOf,
  shardKindOf,
  type ShardKind,
} from './kinds.ts';
export type { IndexKind, IndexKindCost, ShardHeaderSummary } from './index-kind.ts';
export { MAX_SHARD_TEXT_BYTES } from './format.ts';
export { ShardFormatError, ShardTooLargeError } from './errors.ts';
export type {
  DocWindow,
  IndexShardOptions,
  Location,
  RankInterval,
  ShardFileInfo,
  ShardFileSet,
  ShardOpenMode,
  ShardReader,
  ShardStats,
  ShardWriter,
  Span,
} from './types.ts';
