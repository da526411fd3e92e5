import { openSync } from 'node:fs';
import path from 'node:path';
import { DocTable } from '../doc-table.ts';
import { ShardFormatError } from '../errors.ts';
import { checkShardFileSizes } from '../format.ts';
import type { ShardOpenMode, ShardReader } from '../types.ts';
import { FmIndex } from './fm-index.ts';
import { decodeChunkCounts, decodeDocGaps } from './varint-gaps.ts';
import { IndexText } from './index-text.ts';
import {
  bwtBlocks,
  CFILES,
  DOC_GAPS_MIN_VERSION,
  FROM_INDEX,
  chunkStartEntries,
  readCompressedHeader,
  type CompressedHeader,
  type DataFile,
} from './format.ts';
import { assertLittleEndian } from './indexer.ts';
import { NativeLocator } from './native-locate.ts';
import { unpackTable } from './packed-tables.ts';
import { CompressedShardReader } from './reader.ts';
import { SaSamples } from './sa-samples.ts';
import { chunkStartsProblem, decodeBlockSymbols, decodeChunkStarts } from './stored-tables.ts';
import { TextBlocks, type BlockSource } from './text-blocks.ts';
import { blockDecoder } from './text-codec.ts';
import {
  defaultReadWholeFileOptions,
  readFileBuffer,
  readFileTyped,
  type ReadWholeFileOptions,
} from '../whole-file.ts';

/** f(), with any error it throws reported as a ShardFormatError of `file`. */
function guarded<T>(file: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ShardFormatError) throw e;
    throw new ShardFormatError(file, (e as Error).message);
  }
}

/** A data file's bytes as the reader uses them: unpacked when the header packs it (version 8, packed-tables.ts). */
type TableReader = (key: DataFile) => Buffer;

function tableReader(
  header: CompressedHeader,
  file: (key: DataFile) => string,
  read: ReadWholeFileOptions,
): TableReader {
  const packed = header.packedTables;
  return (key) => {
    const name = file(key);
    const raw = readFileBuffer(name, read);
    const bytes = packed?.bytes[key];
    return packed === undefined || bytes === undefined
      ? raw
      : guarded(name, () => unpackTable(raw, packed.codec, bytes));
  };
}

/** Per block, 256 symbol counts and 256 code lengths: stored as they lie (versions 1–2) or compactly (3). */
function blockSymbols(
  header: CompressedHeader,
  file: (key: DataFile) => string,
  table: TableReader,
  read: ReadWholeFileOptions,
): { counts: Uint16Array; lengths: Uint8Array } {
  if (header.formatVersion < 3)
    return { counts: readFileTyped(file('counts'), Uint16Array, read), lengths: readFileBuffer(file('lengths'), read) };
  const name = file('symbols');
  return guarded(name, () => decodeBlockSymbols(table('symbols'), bwtBlocks(header.textBytes, header.blockSymbols)));
}

/** The samples' chunk starts, checked: a walk trusts them to bound its reads of the sample rows. */
function chunkStarts(
  header: CompressedHeader,
  file: (key: DataFile) => string,
  table: TableReader,
  read: ReadWholeFileOptions,
): Uint32Array {
  const name = file('sampleChunks');
  return guarded(name, () => {
    const entries = chunkStartEntries(header.textBytes);
    const starts =
      header.formatVersion < 3
        ? readFileTyped(name, Uint32Array, read)
        : header.formatVersion < DOC_GAPS_MIN_VERSION
          ? decodeChunkStarts(readFileBuffer(name, read), entries)
          : decodeChunkCounts(table('sampleChunks'), entries);
    const problem = chunkStartsProblem(starts, Math.ceil(header.textBytes / header.sampleRate));
    if (problem !== undefined) throw new RangeError(problem);
    return starts;
  });
}

const shardFile =
  (dir: string, header: CompressedHeader) =>
  (key: DataFile): string =>
    path.join(dir, header.files[key]?.name ?? CFILES[key]);

/** One data file of a checked shard as the reader uses it (unpacked when packed); benchmarks and tests read with it. */
export function readShardTable(
  dir: string,
  header: CompressedHeader,
  key: DataFile,
  read: ReadWholeFileOptions = defaultReadWholeFileOptions,
): Buffer {
  return tableReader(header, shardFile(dir, header), read)(key);
}

/**
 * The FM-index and SA samples of a shard whose header (and file sizes) were checked: fresh arrays on each call,
 * each file read in slices of `read.chunkBytes` (no 2 GiB limit of one read).
 */
export function loadFmParts(
  dir: string,
  header: CompressedHeader,
  read: ReadWholeFileOptions = defaultReadWholeFileOptions,
): { fm: FmIndex; samples: SaSamples } {
  const file = shardFile(dir, header);
  const table = tableReader(header, file, read);
  // Version 4 stores the bits in hybrid chunks (5: with RRR chunks); older versions' plain words are converted on open.
  const bits =
    header.formatVersion >= 4
      ? { hybrid: table('bits'), rrr: header.formatVersion >= 5 }
      : { words: readFileTyped(file('bits'), Uint32Array, read) };
  const symbols = blockSymbols(header, file, table, read);
  const fm = guarded(
    file('bits'),
    () =>
      new FmIndex({
        textBytes: header.textBytes,
        blockSymbols: header.blockSymbols,
        dollarRank: header.dollarRank,
        ...symbols,
        bits,
      }),
  );
  const samples = new SaSamples(
    chunkStarts(header, file, table, read),
    readFileBuffer(file('sampleRows'), read),
    readFileTyped(file('sampleValues'), Uint32Array, read),
    header.sampleRate,
    header.textBytes,
  );
  return { fm, samples };
}

/**
 * Opens a compressed shard. Both modes keep the FM-index, samples and document table in RAM (they are the
 * small part, ≈ 0.5 × text); 'disk' reads the compressed text blocks by positional reads instead of loading them.
 */
export function openCompressedShard(
  dir: string,
  mode: ShardOpenMode,
  read: ReadWholeFileOptions = defaultReadWholeFileOptions,
): ShardReader {
  assertLittleEndian(dir);
  if (mode !== 'memory' && mode !== 'disk')
    throw new TypeError(`openShard: mode must be 'memory' or 'disk', got ${String(mode)}`);
  const header = readCompressedHeader(dir);
  checkShardFileSizes(dir, header);
  const file = shardFile(dir, header);
  const table = tableReader(header, file, read);
  const docsFile = file('docOffsets');
  const docsRaw = table('docOffsets');
  // Version 7's gaps decode straight to the positions DocTable keeps; older versions store them as u64.
  const docs =
    header.formatVersion >= DOC_GAPS_MIN_VERSION
      ? new DocTable(
          guarded(docsFile, () => decodeDocGaps(docsRaw, header.docCount, header.textBytes)),
          header.textBytes,
          docsFile,
        )
      : DocTable.fromU64(docsRaw, header.textBytes, docsFile);
  const { fm, samples } = loadFmParts(dir, header, read);
  const native = NativeLocator.open(fm, samples);
  const codec = header.textCodec;
  if (codec === FROM_INDEX) {
    const name = file('docRows');
    const text = new IndexText(fm, docs, readFileTyped(name, Uint32Array, read), name);
    return new CompressedShardReader(fm, samples, text, docs, undefined, native);
  }
  const textFile = header.files.text;
  if (textFile === undefined) throw new ShardFormatError(file('text'), 'missing from the header');
  const fd = mode === 'disk' ? openSync(file('text'), 'r') : undefined;
  const source: BlockSource =
    fd === undefined ? { kind: 'memory', bytes: readFileBuffer(file('text'), read) } : { kind: 'disk', fd };
  const dictionary = codec === 'zstd-dict' ? table('textDict') : Buffer.alloc(0);
  const decode = guarded(file('text'), () => blockDecoder(codec, dictionary));
  const text = new TextBlocks(
    source,
    readFileBuffer(file('textBlocks'), read),
    header.textBytes,
    header.textBlockBytes,
    file('textBlocks'),
    textFile.bytes,
    decode,
    textFile.name,
  );
  return new CompressedShardReader(fm, samples, text, docs, fd, native);
}
