/**
 * The shard: one crawl period's articles, their byte-level suffix array and the readers over them.
 * Two index kinds: suffix array (indexShard) and compressed FM-index (indexCompressedShard, compressed/DESIGN.md).
 * Write with createShardWriter → indexShard; check with verifyShardFiles; read with openShard. See DESIGN.md.
 */
export { createShardWriter } from './writer.ts';
export { indexShard, verifyShardFiles } from './indexer.ts';
export { openShard, buildShardInMemory } from './open.ts';
export { indexCompressedShard } from './compressed/indexer.ts';
export { SHARD_KINDS, isShardKind, readableShardFormatVersions, shardFormatVersionOf, shardKindOf, type ShardKind } from './kind.ts';
export { SHARD_FORMAT_VERSION, MAX_SHARD_TEXT_BYTES } from './format.ts';
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
