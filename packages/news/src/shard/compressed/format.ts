import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ShardFormatError } from '../errors.ts';
import { FILES as SA_FILES, MAX_SHARD_TEXT_BYTES, POINTER_BYTES, SEPARATOR, SHARD_MAGIC } from '../format.ts';
import type { ShardFileInfo } from '../types.ts';
import { ALPHABET } from './huffman.ts';
import { docRowWords } from './index-text.ts';
import { packedValueWords } from './sa-samples.ts';
import { chunkStartsBytes } from './stored-tables.ts';
import { PACKED_TABLES, TABLE_CODECS, type PackedTablesInfo } from './packed-tables.ts';
import { TEXT_CODECS, ZSTD_DICT_MIN_VERSION, type TextCodecName, type TextCodecParams } from './text-codec.ts';

/**
 * Bump on any change to the files below; the reader refuses versions it does not list. See DESIGN.md. Version 2 has
 * version 1's files and allows any sample rate from 2 to 2^16 (version 1: powers of two). Version 3 stores the block
 * symbol table and the sample chunk starts compactly (stored-tables.ts). Version 4 may name the `zstd-dict` text
 * codec (text-codec.ts), whose shards add a dictionary file. Version 5 has version 4's files, with RRR chunks allowed
 * in `fm-bits.hyb` (rrr-chunk.ts). Version 6 has version 5's files, and may name the text codec `from-index`: no
 * text blocks, documents read back from the FM-index (index-text.ts), with `doc-rows.bin`. Version 7 stores the
 * document table and the sample chunk starts as varint gaps (`docs.gaps`, `sa-counts.bin`; varint-gaps.ts) instead of
 * `docs.u64` and `sa-chunks.bin`. Version 8 has version 7's files, with the tables of PACKED_TABLES stored as one
 * compressed frame each (packed-tables.ts; header `packedTables`). All eight are read.
 */
export const COMPRESSED_FORMAT_VERSION = 8;
export const COMPRESSED_READABLE_VERSIONS: readonly number[] = [1, 2, 3, 4, 5, 6, 7, 8];
/** First version whose document table and sample chunk starts are varint gaps (varint-gaps.ts). */
export const DOC_GAPS_MIN_VERSION = 7;
/** First version whose PACKED_TABLES are compressed frames (packed-tables.ts). */
export const PACKED_TABLES_MIN_VERSION = 8;

/** Header `textCodec` of a shard that stores no text blocks (index-text.ts); format version 6 and later. */
export const FROM_INDEX = 'from-index';
export const FROM_INDEX_MIN_VERSION = 6;
export type HeaderTextCodec = TextCodecName | typeof FROM_INDEX;
export const COMPRESSED_KIND = 'compressed';

/**
 * Build parameters, recorded in the header: blockSymbols and textBlockBytes powers of two (blockSymbols ≤ 2^15 so
 * block counts fit a u16), sampleRate any integer from 2 to 2^16.
 */
export interface CompressedParams {
  readonly blockSymbols: number;
  readonly sampleRate: number;
  readonly textBlockBytes: number;
  /** brotli quality when the text codec is brotli (`text` absent and the addon not built, or `text.codec` brotli). */
  readonly brotliQuality: number;
  /** The text codec; absent: TEXT_CODEC_DEFAULTS (zstd with a trained dictionary). */
  readonly text?: TextCodecParams;
}

/**
 * Defaults chosen in DESIGN.md ("Costs", "Text block size"): block sizes, sample rate, text codec quality. Text blocks
 * of 128 KiB (32 KiB, then 64 KiB before; the header records the size, so shards of any size read alike): with a
 * 512 KiB dictionary, −0.008 bytes per text byte on real news against 64 KiB, get_doc p50 ≈ 100 → 200 µs (≤ 300).
 */
export const COMPRESSED_DEFAULTS: CompressedParams = {
  blockSymbols: 1 << 15,
  sampleRate: 36,
  textBlockBytes: 128 << 10,
  brotliQuality: 6,
};

/** The data files of every version; `counts` and `lengths` are versions 1–2 only, `symbols` version 3 only. */
export const CFILES = {
  header: SA_FILES.header,
  docOffsets: SA_FILES.docOffsets,
  text: 'text.br',
  textDict: 'text-dict.zstd',
  textBlocks: 'text-blocks.u64',
  counts: 'fm-counts.u16',
  lengths: 'fm-lengths.u8',
  symbols: 'fm-symbols.bin',
  bits: 'fm-bits.u32',
  sampleChunks: 'sa-chunks.u32',
  sampleRows: 'sa-rows.u8',
  sampleValues: 'sa-values.u32',
  docRows: 'doc-rows.bin',
} as const;
export type DataFile = Exclude<keyof typeof CFILES, 'header'>;

/** Version 4's (and 5's) wavelet bits in hybrid chunks (rank-bits.ts), under the key `bits`. */
export const HYBRID_BITS_FILE = 'fm-bits.hyb';

/** Version 3's file of the samples' chunk starts (stored-tables.ts), under the key `sampleChunks`. */
export const COMPACT_SAMPLE_CHUNKS = 'sa-chunks.bin';

/** Version 7's document table (under the key `docOffsets`): varint gaps, varint-gaps.ts. */
export const DOC_GAPS_FILE = 'docs.gaps';

/** Version 7's sample chunk starts (under the key `sampleChunks`): samples per 256 rows as varints, varint-gaps.ts. */
export const CHUNK_COUNTS_FILE = 'sa-counts.bin';

/** The zstd-dict codec's text file (under the key `text`); its dictionary is `textDict`. */
export const ZSTD_TEXT = 'text.zst';

/** Each data file's name in a shard of this format version and text codec. */
export function dataFiles(version: number, codec: HeaderTextCodec = 'brotli'): Partial<Record<DataFile, string>> {
  const text =
    codec === FROM_INDEX
      ? { docRows: CFILES.docRows }
      : {
          ...(codec === 'zstd-dict' ? { text: ZSTD_TEXT, textDict: CFILES.textDict } : { text: CFILES.text }),
          textBlocks: CFILES.textBlocks,
        };
  const common = {
    docOffsets: version >= DOC_GAPS_MIN_VERSION ? DOC_GAPS_FILE : CFILES.docOffsets,
    ...text,
    bits: CFILES.bits,
    sampleRows: CFILES.sampleRows,
    sampleValues: CFILES.sampleValues,
  };
  if (version >= 4)
    return {
      ...common,
      bits: HYBRID_BITS_FILE,
      symbols: CFILES.symbols,
      sampleChunks: version >= DOC_GAPS_MIN_VERSION ? CHUNK_COUNTS_FILE : COMPACT_SAMPLE_CHUNKS,
    };
  return version >= 3
    ? { ...common, symbols: CFILES.symbols, sampleChunks: COMPACT_SAMPLE_CHUNKS }
    : { ...common, counts: CFILES.counts, lengths: CFILES.lengths, sampleChunks: CFILES.sampleChunks };
}

/** header.json of a compressed shard, written last (its presence means the shard is complete). */
export interface CompressedHeader {
  readonly magic: typeof SHARD_MAGIC;
  readonly kind: typeof COMPRESSED_KIND;
  readonly formatVersion: number;
  readonly textBytes: number;
  readonly docCount: number;
  /** Width of a stored SA sample (text position / sampleRate), kept as the SA kind's pointer width. */
  readonly pointerBytes: number;
  readonly separator: number;
  readonly blockSymbols: number;
  readonly sampleRate: number;
  /** BWT row of the virtual sentinel (the row of the suffix at text position 0). */
  readonly dollarRank: number;
  readonly textBlockBytes: number;
  readonly textCodec: HeaderTextCodec;
  /** Every data file of `dataFiles(formatVersion, textCodec)`, by key. */
  readonly files: Readonly<Partial<Record<DataFile, ShardFileInfo>>>;
  /** Version 8 and later: the codec of the packed tables and each one's unpacked size (`files` has the packed). */
  readonly packedTables?: PackedTablesInfo;
}

/** Sizes every data file must have, given the header's numbers (fm-bits and text.br are checked on load). */
export function expectedSizes(h: Omit<CompressedHeader, 'files'>): Partial<Record<DataFile, number>> {
  const blocks = bwtBlocks(h.textBytes, h.blockSymbols);
  const samples = Math.ceil(h.textBytes / h.sampleRate);
  const common = {
    // Version 7's varint gaps have no size given by the header: their decode checks them.
    ...(h.formatVersion >= DOC_GAPS_MIN_VERSION ? {} : { docOffsets: 8 * h.docCount }),
    ...(h.textCodec === FROM_INDEX
      ? { docRows: 4 * docRowWords(h.docCount) }
      : { textBlocks: 8 * (Math.ceil(h.textBytes / h.textBlockBytes) + 1) }),
    sampleRows: samples,
    sampleValues: 4 * packedValueWords(h.textBytes, h.sampleRate),
  };
  // Version 3's symbol table has 32 + 3k bytes per block (k distinct bytes): checked when it is decoded.
  // Version 7's varint chunk counts are checked by their decode and chunkStartsProblem.
  if (h.formatVersion >= DOC_GAPS_MIN_VERSION) return common;
  return h.formatVersion >= 3
    ? { ...common, sampleChunks: chunkStartsBytes(chunkStartEntries(h.textBytes)) }
    : {
        ...common,
        counts: 2 * ALPHABET * blocks,
        lengths: ALPHABET * blocks,
        sampleChunks: 4 * chunkStartEntries(h.textBytes),
      };
}

/** Wavelet-tree blocks of the BWT of T$ (textBytes + 1 rows). */
export const bwtBlocks = (textBytes: number, blockSymbols: number): number => Math.ceil((textBytes + 1) / blockSymbols);

/** Entries of the sample chunk starts: one per 256 FM rows, and the end. */
export const chunkStartEntries = (textBytes: number): number => Math.ceil((textBytes + 1) / 256) + 1;

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const isPow2 = (v: unknown, max: number): v is number => isCount(v) && v >= 2 && v <= max && (v & (v - 1)) === 0;

/** Reads and validates a compressed shard's header.json (magic, kind, version, parameters, file entries). */
export function readCompressedHeader(dir: string): CompressedHeader {
  const file = path.join(dir, CFILES.header);
  let h: Partial<Record<keyof CompressedHeader, unknown>> | null;
  try {
    h = JSON.parse(readFileSync(file, 'utf8')) as typeof h;
  } catch (err) {
    throw new ShardFormatError(file, `unreadable: ${String(err)}`);
  }
  const fail = (what: string): never => {
    throw new ShardFormatError(file, what);
  };
  if (!h || h.magic !== SHARD_MAGIC || h.kind !== COMPRESSED_KIND) fail(`not a compressed shard header`);
  const v = h as Record<keyof CompressedHeader, unknown>;
  if (typeof v.formatVersion !== 'number' || !COMPRESSED_READABLE_VERSIONS.includes(v.formatVersion)) {
    fail(
      `compressed format version ${String(v.formatVersion)}, this reader supports ${COMPRESSED_READABLE_VERSIONS.join(', ')}; rebuild the shard`,
    );
  }
  if (
    !isCount(v.textBytes) ||
    !isCount(v.docCount) ||
    v.textBytes > MAX_SHARD_TEXT_BYTES ||
    v.docCount > v.textBytes ||
    (v.docCount === 0) !== (v.textBytes === 0)
  ) {
    fail('textBytes/docCount missing, inconsistent or over the format limit');
  }
  if (v.pointerBytes !== POINTER_BYTES || v.separator !== SEPARATOR) fail('pointerBytes or separator unsupported');
  const codec = v.textCodec as HeaderTextCodec;
  const since = codec === 'brotli' ? 1 : codec === FROM_INDEX ? FROM_INDEX_MIN_VERSION : ZSTD_DICT_MIN_VERSION;
  if ((codec !== FROM_INDEX && !TEXT_CODECS.includes(codec)) || (v.formatVersion as number) < since) {
    fail(
      `textCodec ${String(v.textCodec)} is not supported by format version ${String(v.formatVersion)} (brotli: every version; zstd-dict: version ${ZSTD_DICT_MIN_VERSION} and later; ${FROM_INDEX}: version ${FROM_INDEX_MIN_VERSION} and later)`,
    );
  }
  if (!isPow2(v.blockSymbols, 1 << 15) || !isPow2(v.textBlockBytes, 1 << 24))
    fail('blockSymbols (≤ 2^15) or textBlockBytes is not a supported power of two');
  const rateOk =
    v.formatVersion === 1
      ? isPow2(v.sampleRate, 1 << 16)
      : isCount(v.sampleRate) && v.sampleRate >= 2 && v.sampleRate <= 1 << 16;
  if (!rateOk)
    fail(
      `sampleRate ${String(v.sampleRate)} is not supported by format version ${String(v.formatVersion)} (version 1: a power of two up to 2^16; later versions: 2 to 2^16)`,
    );
  if (!isCount(v.dollarRank) || (v.dollarRank as number) > (v.textBytes as number))
    fail('dollarRank missing or out of range');
  const files = (v.files ?? {}) as Record<string, Partial<ShardFileInfo> | undefined>;
  const checked = {} as Record<DataFile, ShardFileInfo>;
  for (const [key, name] of Object.entries(dataFiles(v.formatVersion as number, codec)) as [DataFile, string][]) {
    const o = files[key];
    if (
      !o ||
      o.name !== name ||
      !isCount(o.bytes) ||
      typeof o.sha256 !== 'string' ||
      !/^[0-9a-f]{64}$/.test(o.sha256)
    ) {
      fail(`entry for ${name} is missing or malformed`);
    }
    checked[key] = { name, bytes: o?.bytes as number, sha256: o?.sha256 as string };
  }
  const header = { ...(v as unknown as CompressedHeader), files: checked };
  if ((v.formatVersion as number) >= PACKED_TABLES_MIN_VERSION) {
    const problem = packedTablesProblem(v.packedTables, checked);
    if (problem !== undefined) fail(`packedTables ${problem}`);
  } else if (v.packedTables !== undefined)
    fail(`packedTables is not part of format version ${String(v.formatVersion)}`);
  for (const [key, bytes] of Object.entries(expectedSizes(header)) as [DataFile, number][]) {
    if (checked[key].bytes !== bytes)
      fail(`${checked[key].name} recorded as ${checked[key].bytes} bytes, expected ${bytes}`);
  }
  return header;
}

/** Why a version-8 header's `packedTables` is wrong (a codec of TABLE_CODECS, a size for each packed file), or undefined. */
function packedTablesProblem(value: unknown, files: Partial<Record<DataFile, ShardFileInfo>>): string | undefined {
  const p = value as Partial<PackedTablesInfo> | undefined;
  if (typeof p !== 'object' || p === null || !TABLE_CODECS.includes(p.codec as never))
    return `missing or with a codec other than ${TABLE_CODECS.join(', ')}`;
  const sizes = (p.bytes ?? {}) as Record<string, unknown>;
  const expected = PACKED_TABLES.filter((key) => files[key] !== undefined);
  const extra = Object.keys(sizes).find((key) => !expected.includes(key as DataFile));
  if (extra !== undefined) return `names ${extra}, which is not a packed table of this shard`;
  const bad = expected.find((key) => !isCount(sizes[key]) || (sizes[key] as number) > 0xffff_ffff);
  return bad === undefined ? undefined : `has no valid unpacked size for ${bad}`;
}
