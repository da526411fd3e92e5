import type { DocTable } from '../doc-table.ts';
import { ShardFormatError } from '../errors.ts';
import { SEPARATOR } from '../format.ts';
import type { FmIndex } from './fm-index.ts';
import { packedAt, packedSet, packedValueWords, valueBits } from './sa-samples.ts';

/**
 * The text of a shard built without text blocks (text codec `from-index`, format version 6; DESIGN.md "Text read
 * from the index"): each document is read back from the FM-index by LF steps, from the row of the suffix at its
 * end to its separator, one step per byte. Meant for short documents (headline indexes: ~45 bytes each), where
 * that costs less than the blocks it saves: per document only the row of its separator is stored.
 *
 * Separators are the only 0xFF bytes, and 0xFF is the largest byte, so the suffixes at separators are the last
 * `docCount` rows; `doc-rows.bin` holds, per document d, its separator's row minus the first of them, packed in
 * ⌈log2 docCount⌉ bits.
 */

/** Bits per entry of `doc-rows.bin`, and its size in u32 words. */
export const docRowBits = (docCount: number): number => valueBits(docCount, 1);
export const docRowWords = (docCount: number): number => packedValueWords(docCount, 1);

/**
 * Every document's separator row, found by locating each row that starts with a separator (`locate`: a row's text
 * position, e.g. the reader's locate walk).
 */
export function buildDocRows(fm: FmIndex, docs: DocTable, locate: (row: number) => number): Uint32Array {
  const width = docRowBits(docs.docCount);
  const out = new Uint32Array(docRowWords(docs.docCount));
  const { lo, hi } = fm.rowsStartingWith(SEPARATOR);
  if (hi - lo !== docs.docCount) throw new RangeError(`${hi - lo} separator rows for ${docs.docCount} documents`);
  for (let row = lo; row < hi; row++) packedSet(out, docs.docAt(locate(row)), width, row - lo);
  return out;
}

/** Documents read back whole and kept: a window reads one document several times (its edges, word checks). */
const CACHE_DOCS = 16;

export class IndexText {
  private readonly width: number;
  private readonly mask: number;
  private readonly firstRow: number;
  private readonly cache = new Map<number, Buffer>();

  constructor(
    private readonly fm: FmIndex,
    private readonly docs: DocTable,
    private readonly rows: Uint32Array,
    private readonly file: string,
  ) {
    this.width = docRowBits(docs.docCount);
    this.mask = 2 ** this.width - 1;
    this.firstRow = fm.rowsStartingWith(SEPARATOR).lo;
    if (rows.length !== docRowWords(docs.docCount))
      throw new ShardFormatError(file, `${rows.length} words, expected ${docRowWords(docs.docCount)}`);
    for (let d = 0; d < docs.docCount; d++)
      if (this.rowOffset(d) >= docs.docCount) throw new ShardFormatError(file, `row of document ${d} is out of range`);
  }

  /** Text bytes [start, end), 0 ≤ start ≤ end ≤ textBytes (a separator reads as 0xFF). */
  read(start: number, end: number): Buffer {
    if (end <= start) return Buffer.alloc(0);
    const out = Buffer.allocUnsafe(end - start);
    for (let pos = start; pos < end;) {
      const doc = this.docs.docAt(pos);
      const from = this.docs.docStart(doc) - 1;
      const to = Math.min(end, this.docs.docEnd(doc));
      this.document(doc).copy(out, pos - start, pos - from, to - from);
      pos = to;
    }
    return out;
  }

  private rowOffset(doc: number): number {
    return packedAt(this.rows, doc, this.width, this.mask);
  }

  /** Document `doc` with its separator in front: LF steps back from the row of the suffix at its end. */
  private document(doc: number): Buffer {
    const hit = this.cache.get(doc);
    if (hit) return hit;
    const length = this.docs.docEnd(doc) - this.docs.docStart(doc);
    const out = Buffer.allocUnsafe(length + 1);
    // The last document ends the text: its end is the sentinel's suffix, row 0.
    let row = doc + 1 < this.docs.docCount ? this.firstRow + this.rowOffset(doc + 1) : 0;
    for (let at = length; at >= 0; at--) {
      row = this.fm.lf(row);
      const c = this.fm.firstByte(row);
      if (c < 0 || (c === SEPARATOR) !== (at === 0))
        throw new ShardFormatError(
          this.file,
          `document ${doc} does not read back from the index: the shard is damaged`,
        );
      out[at] = c;
    }
    if (this.cache.size >= CACHE_DOCS) this.cache.delete(this.cache.keys().next().value as number);
    this.cache.set(doc, out);
    return out;
  }
}
