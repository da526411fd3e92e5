import { ShardFormatError } from './errors.ts';
import { SEPARATOR } from './format.ts';

/**
 * The document offset table: position of each article's separator, in text order. Kept in RAM by both
 * readers (8 bytes per article) and searched to turn a text position into (doc, offset).
 */
export class DocTable {
  readonly docCount: number;
  private readonly starts: Float64Array;

  /**
   * @param raw u64 LE separator positions (the docs.u64 file)
   * @param textBytes shard text length
   * @param byteAt optional reader of one text byte, to check that each offset points at a separator
   */
  constructor(raw: Buffer, readonly textBytes: number, file: string, byteAt?: (pos: number) => number | undefined) {
    if (raw.length % 8 !== 0) throw new ShardFormatError(file, `${raw.length} bytes is not a whole number of u64 offsets`);
    this.docCount = raw.length / 8;
    this.starts = new Float64Array(this.docCount);
    let prev = -1;
    for (let i = 0; i < this.docCount; i++) {
      const off = Number(raw.readBigUInt64LE(i * 8));
      const ok = i === 0 ? off === 0 : off > prev && off < textBytes;
      if (!ok || (byteAt && byteAt(off) !== SEPARATOR)) {
        throw new ShardFormatError(file, `offset of article ${i} (${off}) is not a separator position in order`);
      }
      this.starts[i] = off;
      prev = off;
    }
    if (this.docCount === 0 && textBytes !== 0) throw new ShardFormatError(file, 'no articles but the text is not empty');
  }

  /** The article holding text position `pos`; a separator belongs to the article it introduces. */
  docAt(pos: number): number {
    let lo = 0;
    let hi = this.docCount - 1;
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
