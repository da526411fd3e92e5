import { openSync } from 'node:fs';
import path from 'node:path';
import { buildSuffixArray } from '../../suffix-array/index.ts';
import { DocTable } from '../doc-table.ts';
import { ShardTooLargeError } from '../errors.ts';
import { checkShardFileSizes, MAX_SHARD_TEXT_BYTES, SEPARATOR } from '../format.ts';
import type { ShardOpenMode, ShardReader } from '../types.ts';
import {
  defaultReadWholeFileOptions,
  readFileBuffer,
  readFileTyped,
  type ReadWholeFileOptions,
} from '../whole-file.ts';
import { DiskShardReader } from './disk-reader.ts';
import { FILES, readShardHeader } from './format.ts';
import { MemoryShardReader } from './memory-reader.ts';

/**
 * Opens a suffix-array shard built by `indexShard`. Checks magic, format version, pointer width and every file's
 * size (ShardFormatError names the file). `memory` holds the text and suffix array in memory, mapped when the addon
 * is built and `read.map` allows (else read in `read.chunkBytes` slices, so no limit of one read applies); `disk`
 * keeps only the document table in RAM. ShardMemoryError: a file cannot be held.
 *
 * @example
 *   const shard = openSaShard('/data/release/news/2019-05', 'disk');
 */
export function openSaShard(dir: string, mode: ShardOpenMode, read: Partial<ReadWholeFileOptions> = {}): ShardReader {
  const header = readShardHeader(dir);
  checkShardFileSizes(dir, header);
  const docsFile = path.join(dir, FILES.docOffsets);
  // The SA kind maps its text and suffix array (nothing writes to them): no copy at start, one page cache for all.
  const options: ReadWholeFileOptions = { ...defaultReadWholeFileOptions, map: true, ...read };
  if (mode === 'memory') {
    const text = readFileBuffer(path.join(dir, FILES.text), options);
    const sa = readFileTyped(path.join(dir, FILES.suffixArray), Int32Array, options);
    const docs = DocTable.readU64(docsFile, header.textBytes, (pos) => text[pos], options);
    return new MemoryShardReader(text, sa, docs);
  }
  if (mode !== 'disk') throw new TypeError(`openShard: mode must be 'memory' or 'disk', got ${String(mode)}`);
  const docs = DocTable.readU64(docsFile, header.textBytes, undefined, options);
  const textFd = openSync(path.join(dir, FILES.text), 'r');
  const saFd = openSync(path.join(dir, FILES.suffixArray), 'r');
  return new DiskShardReader(textFd, saFd, docs);
}

/**
 * Builds a memory shard from articles without touching disk; for tests of the modules above the engine.
 *
 * @example
 *   const shard = await buildShardInMemory([Buffer.from('aa'), Buffer.from('a')]);
 *   shard.count(Buffer.from('a')); // 3
 */
export async function buildShardInMemory(docs: readonly Uint8Array[]): Promise<ShardReader> {
  const textBytes = docs.reduce((sum, d) => sum + 1 + d.length, 0);
  if (textBytes > MAX_SHARD_TEXT_BYTES) throw new ShardTooLargeError('(in memory)', textBytes, MAX_SHARD_TEXT_BYTES);
  const text = Buffer.allocUnsafeSlow(textBytes);
  const offsets = Buffer.alloc(docs.length * 8);
  let at = 0;
  docs.forEach((doc, i) => {
    if (doc.includes(SEPARATOR)) throw new RangeError(`article ${i} contains byte 0xFF, which separates articles`);
    offsets.writeBigUInt64LE(BigInt(at), i * 8);
    text[at++] = SEPARATOR;
    text.set(doc, at);
    at += doc.length;
  });
  const sa = await buildSuffixArray(text); // allocUnsafeSlow: owns its ArrayBuffer, so the view is aligned
  return new MemoryShardReader(
    text,
    new Int32Array(sa.buffer, sa.byteOffset, textBytes),
    DocTable.fromU64(offsets, textBytes, '(in memory)'),
  );
}
