import { ShardFormatError } from './errors.ts';
import { SEPARATOR } from './format.ts';
import { defaultReadWholeFileOptions, forEachFileSlice, type ReadWholeFileOptions } from './whole-file.ts';

/** Bytes of `docs.u64` read and decoded at a time (a multiple of 8). */
const U64_SLICE_BYTES = 64 << 10;

/**
 * The document offset table: position of each article's separator, in text order. Kept in RAM by both
 * readers (8 bytes per article) and searched to turn a text position into (doc, offset).
 */
export class DocTable {
  readonly docCount: number;
  private readonly starts: Float64Array;
  /**
   * buckets[k] = the article holding text position k·2^shift, with about one article per bucket: docAt searches
   * one bucket instead of the whole table. Why: a binary search over 360,000 starts (a 1 GB part) is ~19 dependent
   * reads, half of them cache misses once a get_doc window has been decompressed, several µs of every locate.
   */
  private readonly buckets: Uint32Array;
  private readonly shift: number;

  /**
   * The table of u64 LE separator positions as `docs.u64` holds them (SA kind, compressed formats 1–6).
   * @example DocTable.fromU64(readFileSync('shard/docs.u64'), header.textBytes, 'shard/docs.u64')
   */
  static fromU64(raw: Buffer, textBytes: number, file: string, byteAt?: (pos: number) => number | undefined): DocTable {
    if (raw.length % 8 !== 0)
      throw new ShardFormatError(file, `${raw.length} bytes is not a whole number of u64 offsets`);
    const starts = new Float64Array(raw.length / 8);
    for (let i = 0; i < starts.length; i++) starts[i] = Number(raw.readBigUInt64LE(i * 8));
    return new DocTable(starts, textBytes, file, byteAt);
  }

  /**
   * The table read from a `docs.u64` file in 64 KiB slices, decoded as it goes: open holds no copy of the file (a
   * mapped or read one would stay until the next full GC, 8 bytes per article of RSS).
   * @example DocTable.readU64('shard/docs.u64', header.textBytes)
   */
  static readU64(
    file: string,
    textBytes: number,
    byteAt?: (pos: number) => number | undefined,
    read: ReadWholeFileOptions = defaultReadWholeFileOptions,
  ): DocTable {
    let starts = new Float64Array(0);
    forEachFileSlice(
      file,
      U64_SLICE_BYTES,
      (size) => {
        if (size % 8 !== 0) throw new ShardFormatError(file, `${size} bytes is not a whole number of u64 offsets`);
        starts = new Float64Array(size / 8);
      },
      (slice, at) => {
        for (let i = 0; i < slice.length; i += 8) starts[(at + i) / 8] = Number(slice.readBigUInt64LE(i));
      },
      read,
    );
    return new DocTable(starts, textBytes, file, byteAt);
  }

  /**
   * @param starts each article's separator position, in text order (kept: the caller hands it over)
   * @param textBytes shard text length
   * @param byteAt optional reader of one text byte, to check that each offset points at a separator
   */
  constructor(
    starts: Float64Array,
    readonly textBytes: number,
    file: string,
    byteAt?: (pos: number) => number | undefined,
  ) {
    this.docCount = starts.length;
    this.starts = starts;
    let prev = -1;
    for (let i = 0; i < this.docCount; i++) {
      const off = starts[i] as number;
      const ok = i === 0 ? off === 0 : off > prev && off < textBytes;
      if (!ok || (byteAt && byteAt(off) !== SEPARATOR)) {
        throw new ShardFormatError(file, `offset of article ${i} (${off}) is not a separator position in order`);
      }
      prev = off;
    }
    if (this.docCount === 0 && textBytes !== 0)
      throw new ShardFormatError(file, 'no articles but the text is not empty');
    this.shift = Math.max(4, Math.floor(Math.log2(Math.max(1, textBytes / Math.max(1, this.docCount)))));
    this.buckets = new Uint32Array(Math.floor(Math.max(0, textBytes - 1) / 2 ** this.shift) + 1);
    for (let k = 0, doc = 0; k < this.buckets.length; k++) {
      const at = k * 2 ** this.shift;
      while (doc + 1 < this.docCount && (this.starts[doc + 1] as number) <= at) doc++;
      this.buckets[k] = doc;
    }
  }

  /** The article holding text position `pos`; a separator belongs to the article it introduces. */
  docAt(pos: number): number {
    if (this.docCount === 0 || pos <= 0) return 0;
    const k = Math.floor(pos / 2 ** this.shift);
    let lo = k < this.buckets.length ? (this.buckets[k] as number) : this.docCount - 1;
    let hi = k + 1 < this.buckets.length ? (this.buckets[k + 1] as number) : this.docCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.starts[mid] as number) <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Text position of the article's first byte (just after its separator). */
  docStart(doc: number): number {
    return (this.starts[doc] as number) + 1;
  }

  /** Text position just past the article's last byte. */
  docEnd(doc: number): number {
    return doc + 1 < this.docCount ? (this.starts[doc + 1] as number) : this.textBytes;
  }

  /** Throws RangeError unless 0 ≤ doc < docCount (the HTTP layer maps it to 422). */
  checkDoc(doc: number): void {
    if (!Number.isInteger(doc) || doc < 0 || doc >= this.docCount) {
      throw new RangeError(`document ${doc} is outside [0, ${this.docCount})`);
    }
  }
}
