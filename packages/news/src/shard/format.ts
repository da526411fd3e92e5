import { statSync } from 'node:fs';
import path from 'node:path';
import { MAX_SUFFIX_ARRAY_TEXT_BYTES } from '../suffix-array/index.ts';
import { ShardFormatError } from './errors.ts';
import type { ShardFileInfo } from './types.ts';

/** Shared by every index kind (each kind versions its own files in its header's `formatVersion`). */
export const SHARD_MAGIC = 'news-shard';
/** Text bytes (separators included) one shard may hold in format v1: the 32-bit suffix sort's limit. */
export const MAX_SHARD_TEXT_BYTES = MAX_SUFFIX_ARRAY_TEXT_BYTES;
/** Byte that precedes every article; it never occurs in UTF-8. */
export const SEPARATOR = 0xff;
export const POINTER_BYTES = 4;

/** The files every kind starts from (`createShardWriter`) and the header each kind's indexer writes last. */
export const FILES = {
  header: 'header.json',
  text: 'text.bin',
  docOffsets: 'docs.u64',
} as const;

/** Checks that every data file has the size the header promises (catches truncation and mixed builds). */
export function checkShardFileSizes(
  dir: string,
  header: { readonly files: Readonly<Record<string, ShardFileInfo>> },
): void {
  for (const info of Object.values(header.files)) {
    const file = path.join(dir, info.name);
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      throw new ShardFormatError(file, 'missing');
    }
    if (size !== info.bytes) {
      throw new ShardFormatError(file, `${size} bytes, header says ${info.bytes} (truncated or from another build)`);
    }
  }
}
