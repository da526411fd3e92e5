import { createHash } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { buildSuffixArray } from '../suffix-array/index.ts';
import { sha256Chunked, writeAndHash } from './chunked-io.ts';
import { ShardFormatError } from './errors.ts';
import { FILES, POINTER_BYTES, SEPARATOR, SHARD_FORMAT_VERSION, SHARD_MAGIC, readShardHeader } from './format.ts';
import type { ShardHeader } from './format.ts';
import { readCompressedHeader } from './compressed/format.ts';
import { shardKindOf } from './kind.ts';
import type { IndexShardOptions, ShardFileInfo, ShardFileSet } from './types.ts';
import { readShardInput } from './shard-input.ts';

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

  const info = (name: string, bytes: Uint8Array): ShardFileInfo => ({ name, bytes: bytes.length, sha256: sha256Chunked(bytes) });
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
  const saInfo: ShardFileInfo = { name: FILES.suffixArray, bytes: sa.length, sha256: await writeAndHash(path.join(dir, FILES.suffixArray), sa) };
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
  const headerInfo: ShardFileInfo = { name: FILES.header, bytes: headerBytes.length, sha256: await writeAndHash(path.join(dir, FILES.header), headerBytes) };
  progress('done', size, size);
  return {
    formatVersion: header.formatVersion,
    textBytes: header.textBytes,
    docCount: header.docCount,
    pointerBytes: header.pointerBytes,
    files: [headerInfo, header.files.text, header.files.docOffsets, header.files.suffixArray],
  };
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Checks a shard directory against what `indexShard` returned (e.g. from a release manifest): the header's
 * numbers, then each file's size and SHA-256 (streamed). Throws ShardFormatError naming the first mismatch.
 */
export async function verifyShardFiles(dir: string, expected: ShardFileSet, opts: { readonly digests?: boolean } = {}): Promise<void> {
  const header = shardKindOf(dir) === 'compressed' ? readCompressedHeader(dir) : readShardHeader(dir);
  const headerFile = path.join(dir, FILES.header);
  for (const key of ['formatVersion', 'textBytes', 'docCount', 'pointerBytes'] as const) {
    if (header[key] !== expected[key]) {
      throw new ShardFormatError(headerFile, `${key} is ${header[key]}, expected ${expected[key]}`);
    }
  }
  for (const f of expected.files) {
    const file = path.join(dir, f.name);
    let bytes: number;
    try {
      bytes = statSync(file).size;
    } catch {
      throw new ShardFormatError(file, 'missing');
    }
    if (bytes !== f.bytes) throw new ShardFormatError(file, `${bytes} bytes, expected ${f.bytes}`);
    // A caller that hashed the files already (openRelease, on threads) checks only the header and sizes here.
    if (opts.digests === false) continue;
    const digest = await hashFile(file);
    if (digest !== f.sha256) throw new ShardFormatError(file, `sha256 ${digest}, expected ${f.sha256}`);
  }
}
