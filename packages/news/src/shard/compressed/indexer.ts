import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import path from 'node:path';
import { buildSuffixArray } from '../../suffix-array/index.ts';
import { DocTable } from '../doc-table.ts';
import { ShardFormatError, ShardTooLargeError } from '../errors.ts';
import { FILES as SA_FILES, MAX_SHARD_TEXT_BYTES, POINTER_BYTES, SEPARATOR, SHARD_MAGIC } from '../format.ts';
import type { IndexShardOptions, ShardFileInfo, ShardFileSet } from '../types.ts';
import { buildFm } from './fm-build.ts';
import { CFILES, COMPRESSED_DEFAULTS, COMPRESSED_FORMAT_VERSION, COMPRESSED_KIND, type CompressedHeader, type CompressedParams } from './format.ts';
import { compressTextBlocks } from './text-blocks.ts';

/** Hash input slices: Node's Hash.update refuses a single buffer of 2^31 bytes or more. */
const HASH_CHUNK = 1 << 28;

function info(name: string, parts: readonly Uint8Array[]): ShardFileInfo {
  const hash = createHash('sha256');
  let bytes = 0;
  for (const part of parts) {
    for (let at = 0; at < part.length; at += HASH_CHUNK) hash.update(part.subarray(at, at + HASH_CHUNK));
    bytes += part.length;
  }
  return { name, bytes, sha256: hash.digest('hex') };
}

const bytesOf = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export function assertLittleEndian(what: string): void {
  // The FM files are typed arrays written and mapped as they lie in memory: little-endian, as on x86 and ARM.
  if (endianness() !== 'LE') throw new Error(`${what}: the compressed index kind needs a little-endian machine`);
}

/**
 * Builds the compressed index of a shard written by `createShardWriter`: sorts the suffixes (the SA kind's sort,
 * so ranks agree), derives BWT + per-block Huffman wavelet trees + SA samples, compresses the text in brotli
 * blocks meanwhile (on the thread pool), writes every file and the header, then removes `text.bin`.
 * Peak memory: text + 4 × text (the sort) + BWT; see DESIGN.md.
 */
export async function indexCompressedShard(dir: string, opts: IndexShardOptions = {}, params: CompressedParams = COMPRESSED_DEFAULTS): Promise<ShardFileSet> {
  assertLittleEndian(dir);
  const progress = opts.onProgress ?? (() => {});
  const textFile = path.join(dir, SA_FILES.text);
  const docsFile = path.join(dir, SA_FILES.docOffsets);
  let size: number;
  try {
    size = statSync(textFile).size;
  } catch {
    throw new ShardFormatError(textFile, 'missing (write the shard with createShardWriter first)');
  }
  if (size > MAX_SHARD_TEXT_BYTES) throw new ShardTooLargeError(dir, size, MAX_SHARD_TEXT_BYTES);
  progress('read-text', 0, size);
  const text = await readFile(textFile);
  const docsRaw = await readFile(docsFile).catch(() => {
    throw new ShardFormatError(docsFile, 'missing (write the shard with createShardWriter first)');
  });
  const docs = new DocTable(docsRaw, text.length, docsFile, (pos) => text[pos]);
  let separators = 0;
  for (let at = text.indexOf(SEPARATOR); at !== -1; at = text.indexOf(SEPARATOR, at + 1)) separators++;
  if (text.length !== size || separators !== docs.docCount) {
    throw new ShardFormatError(textFile, `changed while being read, or ${separators} separator bytes (0xFF) for ${docs.docCount} articles in ${SA_FILES.docOffsets}`);
  }
  const d = params;
  const { parts, samples, packed } = await sortAndBuild(text, d, progress);

  const data: [keyof typeof CFILES, readonly Uint8Array[]][] = [
    ['docOffsets', [docsRaw]],
    ['text', packed.blocks],
    ['textBlocks', [packed.offsets]],
    ['counts', [bytesOf(parts.counts)]],
    ['lengths', [parts.lengths]],
    ['bits', [bytesOf(parts.words)]],
    ['sampleChunks', [bytesOf(samples.chunkStart)]],
    ['sampleRows', [samples.rowLow]],
    ['sampleValues', [bytesOf(samples.values)]],
  ];
  const files = {} as Record<string, ShardFileInfo>;
  for (const [key, chunks] of data) {
    const name = CFILES[key];
    files[key] = info(name, chunks);
    if (key !== 'docOffsets') await writeAtomically(path.join(dir, name), chunks);
  }
  const header: CompressedHeader = {
    magic: SHARD_MAGIC, kind: COMPRESSED_KIND, formatVersion: COMPRESSED_FORMAT_VERSION, textBytes: size,
    docCount: docs.docCount, pointerBytes: POINTER_BYTES, separator: SEPARATOR, blockSymbols: d.blockSymbols,
    sampleRate: d.sampleRate, dollarRank: parts.dollarRank, textBlockBytes: d.textBlockBytes, textCodec: 'brotli',
    files: files as CompressedHeader['files'],
  };
  const headerBytes = Buffer.from(`${JSON.stringify(header, null, 2)}\n`);
  await writeAtomically(path.join(dir, CFILES.header), [headerBytes]);
  // The raw text now lives in text.br; keeping it would double the index.
  await rm(textFile, { force: true });
  progress('done', size, size);
  return {
    formatVersion: COMPRESSED_FORMAT_VERSION, textBytes: size, docCount: docs.docCount, pointerBytes: POINTER_BYTES,
    files: [info(CFILES.header, [headerBytes]), ...Object.values(files)],
  };
}

/** Sort and text compression run together on the thread pool; the suffix array is dropped on return. */
async function sortAndBuild(text: Buffer, d: CompressedParams, progress: NonNullable<IndexShardOptions['onProgress']>) {
  progress('sort', 0, text.length);
  // allSettled: if one fails, the other must not keep writing into memory or a folder the caller removes.
  const [sorted, compressed] = await Promise.allSettled([buildSuffixArray(text), compressTextBlocks(text, d.textBlockBytes, d.brotliQuality)]);
  if (sorted.status === 'rejected') throw sorted.reason;
  if (compressed.status === 'rejected') throw compressed.reason;
  const saBytes = sorted.value;
  const packed = compressed.value;
  progress('sort', text.length, text.length);
  progress('build-fm', 0, text.length);
  const { parts, samples } = buildFm(text, new Int32Array(saBytes.buffer, saBytes.byteOffset, text.length), d);
  progress('build-fm', text.length, text.length);
  return { parts, samples, packed };
}

async function writeAtomically(file: string, chunks: readonly Uint8Array[]): Promise<void> {
  await writeFile(`${file}.tmp`, chunks);
  await rename(`${file}.tmp`, file);
}
