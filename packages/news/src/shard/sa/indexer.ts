import path from 'node:path';
import { buildSuffixArray } from '../../suffix-array/index.ts';
import { sha256Chunked, writeAndHash } from '../chunked-io.ts';
import { POINTER_BYTES, SEPARATOR, SHARD_MAGIC } from '../format.ts';
import { readShardInput } from '../shard-input.ts';
import type { IndexShardOptions, ShardFileInfo, ShardFileSet } from '../types.ts';
import { FILES, SHARD_FORMAT_VERSION, type ShardHeader } from './format.ts';

/**
 * Builds the suffix array of a shard written by `createShardWriter` and writes it with the header.
 * Memory: text + 4 × text. Refuses shards over MAX_SHARD_TEXT_BYTES before reading or sorting them.
 *
 * @example
 *   const files = await indexShard('/tmp/shard'); // { formatVersion: 1, textBytes, docCount, pointerBytes: 4, files }
 */
export async function indexShard(dir: string, opts: IndexShardOptions = {}): Promise<ShardFileSet> {
  const progress = opts.onProgress ?? (() => {});
  const { size, text, docsRaw, docs } = await readShardInput(dir, progress);

  const info = (name: string, bytes: Uint8Array): ShardFileInfo => ({
    name,
    bytes: bytes.length,
    sha256: sha256Chunked(bytes),
  });
  progress('sort', 0, size);
  const sorting = buildSuffixArray(text);
  // The main thread is idle while the addon sorts: hash the text and offsets meanwhile. If hashing fails, the sort
  // is still awaited, so no native job keeps running (or rejects unobserved) while the caller removes the folder.
  let textInfo: ShardFileInfo;
  let docsInfo: ShardFileInfo;
  try {
    textInfo = info(FILES.text, text);
    docsInfo = info(FILES.docOffsets, docsRaw);
  } catch (e) {
    await sorting.catch(() => {});
    throw e;
  }
  const sa = await sorting;
  progress('sort', size, size);

  progress('write-sa', 0, sa.length);
  const saInfo: ShardFileInfo = {
    name: FILES.suffixArray,
    bytes: sa.length,
    sha256: await writeAndHash(path.join(dir, FILES.suffixArray), sa),
  };
  progress('write-sa', sa.length, sa.length);

  const header: ShardHeader = {
    magic: SHARD_MAGIC,
    formatVersion: SHARD_FORMAT_VERSION,
    textBytes: size,
    docCount: docs.docCount,
    pointerBytes: POINTER_BYTES,
    separator: SEPARATOR,
    files: { text: textInfo, docOffsets: docsInfo, suffixArray: saInfo },
  };
  const headerBytes = Buffer.from(`${JSON.stringify(header, null, 2)}\n`);
  const headerInfo: ShardFileInfo = {
    name: FILES.header,
    bytes: headerBytes.length,
    sha256: await writeAndHash(path.join(dir, FILES.header), headerBytes),
  };
  progress('done', size, size);
  return {
    formatVersion: header.formatVersion,
    textBytes: header.textBytes,
    docCount: header.docCount,
    pointerBytes: header.pointerBytes,
    files: [headerInfo, header.files.text, header.files.docOffsets, header.files.suffixArray],
  };
}
