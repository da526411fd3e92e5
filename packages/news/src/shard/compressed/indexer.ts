import { rename, rm, writeFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import path from 'node:path';
import { buildSuffixArray } from '../../suffix-array/index.ts';
import { sha256ChunkedParts } from '../chunked-io.ts';
import { FILES as SA_FILES, POINTER_BYTES, SEPARATOR, SHARD_MAGIC } from '../format.ts';
import { readShardInput } from '../shard-input.ts';
import type { IndexShardOptions, ShardFileInfo, ShardFileSet } from '../types.ts';
import type { DocTable } from '../doc-table.ts';
import { buildFm } from './fm-build.ts';
import { FmIndex, type FmParts } from './fm-index.ts';
import {
  CFILES,
  FROM_INDEX,
  COMPRESSED_DEFAULTS,
  COMPRESSED_FORMAT_VERSION,
  COMPRESSED_KIND,
  dataFiles,
  type CompressedHeader,
  type CompressedParams,
  type DataFile,
} from './format.ts';
import { encodeBlockSymbols } from './stored-tables.ts';
import { encodeChunkCounts, encodeDocGaps } from './varint-gaps.ts';
import { buildDocRows } from './index-text.ts';
import { NativeLocator } from './native-locate.ts';
import { walkToSample } from './reader.ts';
import { buildTableCodec, PACKED_TABLES, packTable, type PackedTablesInfo } from './packed-tables.ts';
import { SaSamples, type SampleArrays } from './sa-samples.ts';
import { effectiveTextCodec, packText, TEXT_CODEC_DEFAULTS, type TextCodecParams } from './text-codec.ts';

function info(name: string, parts: readonly Uint8Array[]): ShardFileInfo {
  return { name, bytes: parts.reduce((n, p) => n + p.length, 0), sha256: sha256ChunkedParts(parts) };
}

const bytesOf = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export function assertLittleEndian(what: string): void {
  // The FM files are typed arrays written and mapped as they lie in memory: little-endian, as on x86 and ARM.
  if (endianness() !== 'LE') throw new Error(`${what}: the compressed index kind needs a little-endian machine`);
}

/**
 * Builds the compressed index of a shard written by `createShardWriter`: sorts the suffixes (the SA kind's sort,
 * so ranks agree), derives BWT + per-block Huffman wavelet trees + SA samples, compresses the text in brotli
 * blocks meanwhile (zstd with a dictionary trained on the text, or brotli; on the thread pool), writes every file and the header, then removes `text.bin`.
 * Peak memory: text + 4 × text (the sort) + BWT; see DESIGN.md.
 */
export async function indexCompressedShard(
  dir: string,
  opts: IndexShardOptions = {},
  params: CompressedParams = COMPRESSED_DEFAULTS,
): Promise<ShardFileSet> {
  assertLittleEndian(dir);
  const progress = opts.onProgress ?? (() => {});
  const { textFile, size, text, docsRaw, docs } = await readShardInput(dir, progress);
  const d = params;
  const codec = opts.shortDocuments === true ? undefined : textCodecOf(d);
  const { parts, samples, packed } = await sortAndBuild(text, d, codec, progress, opts.signal);
  const textData: [DataFile, readonly Uint8Array[]][] = packed
    ? [
        ['text', packed.blocks],
        ['textBlocks', [packed.offsets]],
        ...(codec?.codec === 'zstd-dict'
          ? [['textDict', [packed.dictionary]] as [DataFile, readonly Uint8Array[]]]
          : []),
      ]
    : [['docRows', [bytesOf(docRowsOf(parts, samples, docs, d))]]];

  const data: [DataFile, readonly Uint8Array[]][] = [
    ['docOffsets', [encodeDocGaps(docsRaw)]],
    ...textData,
    ['symbols', [encodeBlockSymbols(parts.counts, parts.lengths)]],
    ['bits', [parts.bits.hybrid]],
    ['sampleChunks', [encodeChunkCounts(samples.chunkStart)]],
    ['sampleRows', [samples.rowLow]],
    ['sampleValues', [bytesOf(samples.values)]],
  ];
  const textCodec = codec?.codec ?? FROM_INDEX;
  const names = dataFiles(COMPRESSED_FORMAT_VERSION, textCodec);
  const { tables, packedTables } = await packTables(data);
  const files = {} as Record<string, ShardFileInfo>;
  for (const [key, chunks] of tables) {
    const name = names[key] as string;
    files[key] = info(name, chunks);
    await writeAtomically(path.join(dir, name), chunks);
  }
  const header: CompressedHeader = {
    magic: SHARD_MAGIC,
    kind: COMPRESSED_KIND,
    formatVersion: COMPRESSED_FORMAT_VERSION,
    textBytes: size,
    docCount: docs.docCount,
    pointerBytes: POINTER_BYTES,
    separator: SEPARATOR,
    blockSymbols: d.blockSymbols,
    sampleRate: d.sampleRate,
    dollarRank: parts.dollarRank,
    textBlockBytes: d.textBlockBytes,
    textCodec,
    files: files as CompressedHeader['files'],
    packedTables,
  };
  const headerBytes = Buffer.from(`${JSON.stringify(header, null, 2)}\n`);
  await writeAtomically(path.join(dir, CFILES.header), [headerBytes]);
  // The raw text now lives in text blocks (or the index), the offsets in docs.gaps; keeping them would double both.
  await rm(textFile, { force: true });
  await rm(path.join(dir, SA_FILES.docOffsets), { force: true });
  progress('done', size, size);
  return {
    formatVersion: COMPRESSED_FORMAT_VERSION,
    textBytes: size,
    docCount: docs.docCount,
    pointerBytes: POINTER_BYTES,
    files: [info(CFILES.header, [headerBytes]), ...Object.values(files)],
  };
}

/** The data files with PACKED_TABLES packed (all at once, on the thread pool), and what the header records of them. */
async function packTables(
  data: readonly [DataFile, readonly Uint8Array[]][],
): Promise<{ tables: [DataFile, readonly Uint8Array[]][]; packedTables: PackedTablesInfo }> {
  const codec = buildTableCodec();
  const bytes: Partial<Record<DataFile, number>> = {};
  const tables = await Promise.all(
    data.map(async ([key, chunks]): Promise<[DataFile, readonly Uint8Array[]]> => {
      if (!PACKED_TABLES.includes(key)) return [key, chunks];
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      bytes[key] = raw.length;
      return [key, [await packTable(raw, codec, key)]];
    }),
  );
  return { tables, packedTables: { codec, bytes } };
}

/** The text codec a build uses: `params.text`, else zstd-dict, else (no addon) brotli at `params.brotliQuality`. */
function textCodecOf(params: CompressedParams): TextCodecParams {
  const asked = params.text ?? TEXT_CODEC_DEFAULTS;
  const codec = effectiveTextCodec(asked);
  return codec.codec === 'brotli' && asked.codec !== 'brotli' ? { ...codec, level: params.brotliQuality } : codec;
}

/**
 * Every document's separator row (index-text.ts), for a shard that stores no text: each row starting with a
 * separator located by the reader's walk (C when the addon is built). Short documents, so few rows.
 */
function docRowsOf(parts: FmParts, samples: SampleArrays, docs: DocTable, d: CompressedParams): Uint32Array {
  const fm = new FmIndex(parts);
  const sampled = new SaSamples(samples.chunkStart, samples.rowLow, samples.values, d.sampleRate, fm.rows - 1);
  const native = NativeLocator.open(fm, sampled);
  return buildDocRows(fm, docs, (row) => (native ? native.position(row) : walkToSample(fm, sampled, row)));
}

/**
 * Sort and text compression (unless `codec` is undefined: no text blocks) run together on the thread pool; the
 * suffix array is dropped on return.
 */
async function sortAndBuild(
  text: Buffer,
  d: CompressedParams,
  codec: TextCodecParams | undefined,
  progress: NonNullable<IndexShardOptions['onProgress']>,
  signal?: AbortSignal,
) {
  progress('sort', 0, text.length);
  // allSettled: if one fails, the other must not keep writing into memory or a folder the caller removes.
  const [sorted, compressed] = await Promise.allSettled([
    buildSuffixArray(text),
    codec ? packText(text, d.textBlockBytes, codec) : Promise.resolve(undefined),
  ]);
  if (sorted.status === 'rejected') throw sorted.reason;
  if (compressed.status === 'rejected') throw compressed.reason;
  const saBytes = sorted.value;
  const packed = compressed.value;
  progress('sort', text.length, text.length);
  progress('build-fm', 0, text.length);
  signal?.throwIfAborted();
  const { parts, samples } = await buildFm(text, new Int32Array(saBytes.buffer, saBytes.byteOffset, text.length), {
    ...d,
    signal,
  });
  progress('build-fm', text.length, text.length);
  return { parts, samples, packed };
}

async function writeAtomically(file: string, chunks: readonly Uint8Array[]): Promise<void> {
  await writeFile(`${file}.tmp`, chunks);
  await rename(`${file}.tmp`, file);
}
