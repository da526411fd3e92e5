import type { DocTable } from './doc-table.ts';
import type { DocWindow, Location, RankInterval, ShardReader, ShardStats } from './types.ts';
import { buildDocWindow } from './window.ts';

/**
 * What every reader kind shares once it can turn a rank into a text position and read text bytes:
 * count from find, locate and windows through the document table, whole articles. Subclasses: the memory and
 * disk readers of the SA kind, and the compressed kind's reader.
 */
export abstract class ShardReaderBase implements ShardReader {
  abstract readonly stats: ShardStats;

  constructor(protected readonly docs: DocTable) {}

  abstract find(query: Uint8Array): RankInterval;
  abstract close(): void;
  /** SA[rank]; throws RangeError outside [0, textBytes). */
  protected abstract textPosition(rank: number): number;
  /** Text bytes [start, end) of the shard, clipped to it (may be a view: callers copy before handing it out). */
  abstract readText(start: number, end: number): Buffer;

  count(query: Uint8Array): number {
    if (query.length === 0) return this.stats.textBytes - this.docs.docCount;
    const { lo, hi } = this.find(query);
    return hi - lo;
  }

  locate(rank: number): Location {
    return this.location(this.textPosition(rank));
  }

  locateMany(ranks: readonly number[]): Location[] {
    for (const rank of ranks) this.assertRank(rank);
    return this.textPositions(ranks).map((pos) => this.location(pos));
  }

  positionsInto(lo: number, hi: number, out: Float64Array | Uint32Array, at: number): void {
    this.assertPositionsRange(lo, hi, out, at);
    const ranks: number[] = [];
    for (let rank = lo; rank < hi; rank++) ranks.push(rank);
    out.set(this.textPositions(ranks), at);
  }

  /** Throws RangeError unless [lo, hi) is a range of ranks and `out` holds hi − lo values from `at`. */
  protected assertPositionsRange(lo: number, hi: number, out: Float64Array | Uint32Array, at: number): void {
    if (hi === lo && Number.isInteger(lo)) return;
    this.assertRank(lo);
    this.assertRank(hi - 1);
    if (hi < lo || !Number.isInteger(at) || at < 0 || at + (hi - lo) > out.length)
      throw new RangeError(`ranks [${lo}, ${hi}) do not fit ${out.length} positions from ${at}`);
  }

  /** `textPosition` of every rank, all in range (checked by the caller); a kind with a batch walk overrides it. */
  protected textPositions(ranks: readonly number[]): number[] {
    return ranks.map((rank) => this.textPosition(rank));
  }

  /** Throws RangeError unless `rank` is an integer in [0, textBytes). */
  protected assertRank(rank: number): void {
    const n = this.stats.textBytes;
    if (!Number.isInteger(rank) || rank < 0 || rank >= n) throw new RangeError(`rank ${rank} is outside [0, ${n})`);
  }

  private location(pos: number): Location {
    const doc = this.docs.docAt(pos);
    return { doc, offset: Math.max(0, pos - this.docs.docStart(doc)), pos };
  }

  window(rank: number, query: Uint8Array, maxCtxLen: number): DocWindow {
    const pos = this.textPosition(rank);
    const doc = this.docs.docAt(pos);
    return buildDocWindow({
      doc,
      docStart: this.docs.docStart(doc),
      docEnd: this.docs.docEnd(doc),
      pos,
      query,
      maxCtxLen,
      read: (start, end) => this.readText(start, end),
    });
  }

  documentLength(doc: number): number {
    this.docs.checkDoc(doc);
    return this.docs.docEnd(doc) - this.docs.docStart(doc);
  }

  documentStart(doc: number): number {
    this.docs.checkDoc(doc);
    return this.docs.docStart(doc);
  }

  documentBytes(doc: number): Buffer {
    this.docs.checkDoc(doc);
    // A copy: callers may keep or change it without touching the index.
    return Buffer.from(this.readText(this.docs.docStart(doc), this.docs.docEnd(doc)));
  }

  documentView(doc: number): Buffer {
    this.docs.checkDoc(doc);
    return this.readText(this.docs.docStart(doc), this.docs.docEnd(doc));
  }
}
