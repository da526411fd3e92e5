import { kindOfShard } from './kinds.ts';
import type { ShardOpenMode, ShardReader } from './types.ts';
import type { ReadWholeFileOptions } from './whole-file.ts';

/**
 * Opens a shard of any registered kind, chosen by its header's `kind` (kinds.ts). The kind checks magic, format
 * version and every file's size (ShardFormatError names the file). `memory` holds the index in RAM, `disk` reads
 * it by positional reads; `read` overrides how whole files are loaded (mapped, or read in slices).
 * ShardMemoryError: a file cannot be held.
 *
 * @example
 *   const shard = openShard('/data/release/news/2019-05', 'disk');
 *   shard.count(Buffer.from('Berlin'));
 */
export function openShard(dir: string, mode: ShardOpenMode, read: Partial<ReadWholeFileOptions> = {}): ShardReader {
  return kindOfShard(dir).open(dir, mode, read);
}
