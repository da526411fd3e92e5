import { promisify } from 'node:util';
import { brotliCompress, brotliDecompressSync, constants } from 'node:zlib';
import { addonWith } from '../../suffix-array/index.ts';

/**
 * How the text blocks are compressed (header `textCodec`, DESIGN.md "Text"):
 * - `brotli`: independent brotli blocks (every format version);
 * - `zstd-dict`: independent zstd frames sharing one dictionary trained on the shard's own text, stored beside the
 *   blocks (format version ≥ 4). News repeats boilerplate across articles (bylines, footers, syndicated copies); a
 *   32 KiB block alone cannot see it, the dictionary does.
 */
export type TextCodecName = 'brotli' | 'zstd-dict';
export const TEXT_CODECS: readonly TextCodecName[] = ['brotli', 'zstd-dict'];
/** The first compressed format version whose header may name `zstd-dict`. */
export const ZSTD_DICT_MIN_VERSION = 4;

/** Build-time choices of the text codec; none of them is needed to read the blocks back. */
export interface TextCodecParams {
  readonly codec: TextCodecName;
  /** brotli quality (codec `brotli`) or zstd level (codec `zstd-dict`). */
  readonly level: number;
  /** Largest dictionary (`zstd-dict`); the trainer is given at most `trainBytes` of the text. */
  readonly dictionaryBytes: number;
  readonly trainBytes: number;
  /** The trainer searches its parameters on every `tuneStride`-th sample only, then trains once on all of them. */
  readonly tuneStride: number;
}

/**
 * Chosen in DESIGN.md ("Text codec"): zstd level 9 (19 is 6× slower to build) with a dictionary of up to 512 KiB
 * (with 128 KiB blocks it compresses real news as well as 1 MiB and costs half as much), brotli q6 without the addon.
 */
export const TEXT_CODEC_DEFAULTS: TextCodecParams = {
  codec: 'zstd-dict',
  level: 9,
  dictionaryBytes: 512 << 10,
  trainBytes: 64 << 20,
  tuneStride: 8,
};
export const BROTLI_FALLBACK: TextCodecParams = {
  codec: 'brotli',
  level: 6,
  dictionaryBytes: 0,
  trainBytes: 0,
  tuneStride: 1,
};

/** The addon's zstd functions (`native/zstd_codec.c`). */
interface ZstdAddon {
  zstdTrain(samples: Uint8Array, sizes: Uint32Array, capacity: number, tuneStride: number): Buffer;
  zstdCompressor(dict: Uint8Array, level: number): object;
  zstdCompress(compressor: object, src: Uint8Array): Promise<Buffer>;
  zstdDecompressor(dict: Uint8Array): object;
  zstdDecompress(decompressor: object, src: Uint8Array, bytes: number): Buffer;
  /** Absent from addons built before it (then `zstdDecompress`). */
  zstdDecompressInto?(decompressor: object, src: Uint8Array, out: Uint8Array): void;
}

const isZstdAddon = (addon: object): addon is ZstdAddon =>
  'zstdDecompress' in addon && typeof addon.zstdDecompress === 'function';

/** The addon's zstd, or undefined when the addon is not built (or predates it). */
export const loadZstd = (): ZstdAddon | undefined => addonWith(isZstdAddon);

/** The codec a build uses: the one asked for, or brotli when zstd is asked for and the addon is not built. */
export function effectiveTextCodec(params: TextCodecParams): TextCodecParams {
  return params.codec === 'zstd-dict' && loadZstd() === undefined ? BROTLI_FALLBACK : params;
}

/** Blocks compressed at once on the libuv pool: enough to keep a core busy beside the suffix sort. */
const IN_FLIGHT = 4;
/** Text per training sample: about an article, so the trainer sees what repeats *between* articles. */
const SAMPLE_BYTES = 4096;

const brotli = promisify(brotliCompress);

/** The compressed blocks, their u64 LE offset table (block count + 1 entries) and the dictionary (empty for brotli). */
export interface PackedText {
  readonly blocks: Buffer[];
  readonly offsets: Buffer;
  readonly dictionary: Buffer;
}

/**
 * Compresses the text in independent blocks of `blockBytes` (the last one shorter) with `params.codec`, so a
 * window decompresses one or two blocks. Call with `effectiveTextCodec(...)`'s choice.
 */
export async function packText(text: Uint8Array, blockBytes: number, params: TextCodecParams): Promise<PackedText> {
  const count = Math.ceil(text.length / blockBytes);
  let dictionary: Buffer = Buffer.alloc(0);
  let compress: (raw: Uint8Array) => Promise<Buffer>;
  if (params.codec === 'zstd-dict') {
    const zstd = loadZstd();
    if (!zstd) throw new Error('the zstd-dict text codec needs the native addon: run `npm run postinstall`');
    dictionary = trainDictionary(zstd, text, params);
    const compressor = zstd.zstdCompressor(dictionary, params.level);
    compress = (raw) => zstd.zstdCompress(compressor, raw);
  } else {
    const lgwin = Math.max(16, Math.ceil(Math.log2(blockBytes)));
    compress = (raw) =>
      brotli(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: params.level,
          [constants.BROTLI_PARAM_LGWIN]: lgwin,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      });
  }
  const blocks = new Array<Buffer>(count);
  let next = 0;
  const work = async (): Promise<void> => {
    for (let b = next++; b < count; b = next++)
      blocks[b] = await compress(text.subarray(b * blockBytes, Math.min(text.length, (b + 1) * blockBytes)));
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, work));
  const offsets = Buffer.alloc(8 * (count + 1));
  let at = 0;
  blocks.forEach((block, b) => {
    offsets.writeBigUInt64LE(BigInt(at), 8 * b);
    at += block.length;
  });
  offsets.writeBigUInt64LE(BigInt(at), 8 * count);
  return { blocks, offsets, dictionary };
}

/**
 * A dictionary trained on up to `trainBytes` of the text, taken as evenly spaced SAMPLE_BYTES pieces (a 1 GiB
 * part is not trained on whole: the trainer's time grows with its input, and a spread sample sees the same
 * boilerplate). Empty when the text is too small or too uniform for the trainer: the blocks are then plain zstd.
 */
function trainDictionary(zstd: ZstdAddon, text: Uint8Array, params: TextCodecParams): Buffer {
  const pieces = Math.floor(text.length / SAMPLE_BYTES);
  const taken = Math.min(pieces, Math.floor(params.trainBytes / SAMPLE_BYTES));
  // The trainer refuses a dictionary larger than a fraction of its input; tiny shards go without one.
  const capacity = Math.min(params.dictionaryBytes, Math.floor((taken * SAMPLE_BYTES) / 16));
  if (taken < 16 || capacity < 1024) return Buffer.alloc(0);
  const samples = Buffer.allocUnsafe(taken * SAMPLE_BYTES);
  for (let k = 0; k < taken; k++) {
    const from = Math.floor((k * pieces) / taken) * SAMPLE_BYTES;
    samples.set(text.subarray(from, from + SAMPLE_BYTES), k * SAMPLE_BYTES);
  }
  try {
    return zstd.zstdTrain(samples, new Uint32Array(taken).fill(SAMPLE_BYTES), capacity, params.tuneStride);
  } catch {
    return Buffer.alloc(0); // e.g. "Src size is incorrect" / not enough distinct content: no dictionary helps then
  }
}

/**
 * Decodes one block to exactly `bytes` bytes, or throws (the caller names the file). With `into` (of `bytes` bytes)
 * the zstd codec decodes into it and returns it, sparing a new buffer; brotli (and an older addon) return a new one.
 */
export type BlockDecoder = (packed: Uint8Array, bytes: number, into?: Buffer) => Buffer;

/** The decoder of a shard's text codec; `dictionary` is the shard's dictionary file (zstd-dict). */
export function blockDecoder(codec: TextCodecName, dictionary: Uint8Array): BlockDecoder {
  if (codec === 'brotli') {
    return (packed, bytes) => {
      const raw = brotliDecompressSync(packed);
      if (raw.length !== bytes) throw new RangeError(`holds ${raw.length} bytes, expected ${bytes}`);
      return raw;
    };
  }
  const zstd = loadZstd();
  if (!zstd)
    throw new Error(
      "this shard's text is zstd with a dictionary, which needs the native addon: run `npm run postinstall`",
    );
  const decompressor = zstd.zstdDecompressor(dictionary);
  const decompressInto = zstd.zstdDecompressInto;
  if (decompressInto === undefined) return (packed, bytes) => zstd.zstdDecompress(decompressor, packed, bytes);
  return (packed, bytes, into) => {
    if (into === undefined || into.length !== bytes) return zstd.zstdDecompress(decompressor, packed, bytes);
    decompressInto(decompressor, packed, into);
    return into;
  };
}
