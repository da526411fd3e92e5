import type { DocTable } from './doc-table.ts';
import type { DocWindow, Location, RankInterval, ShardReader, ShardStats } from './types.ts';
import { buildDocWindow } from './window.ts';

/** Written by a lower-bound search: the smallest rank it probed whose |query|-prefix is greater than the query. */
interface UpperLimit { limit: number }

/**
 * First rank in [lo, hi) whose suffix is ≥ query (upper = false) or whose |query|-prefix is > query (upper = true).
 * Keeps the common-prefix lengths of both bounds so each probe compares only past min(llcp, rlcp) bytes.
 * A lower-bound search also narrows `out.limit`: every rank from there on lies past the query's interval, so the
 * upper-bound search need not look further (for a phrase absent from a shard it then takes no step at all).
 */
function bound(text: Buffer, sa: Int32Array, q: Uint8Array, lo: number, hi: number, upper: boolean, out?: UpperLimit): number {
  const n = text.length;
  const m = q.length;
  let llcp = 0;
  let rlcp = 0;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const pos = sa[mid] as number;
    let k = llcp < rlcp ? llcp : rlcp;
    let c = 0;
    while (k < m) {
      if (pos + k >= n) {
        c = -1; // the suffix ends first: it sorts before the query
        break;
      }
      c = (text[pos + k] as number) - (q[k] as number);
      if (c !== 0) break;
      k++;
    }
    if (c < 0 || (c === 0 && upper)) {
      lo = mid + 1;
      llcp = k;
    } else {
      hi = mid;
      rlcp = k;
      // c > 0 is a byte mismatch before the query's end; mids only shrink, so the last one is the smallest.
      if (c > 0 && out !== undefined) out.limit = mid;
    }
  }
  return lo;
}

/** Whole shard in RAM: text, suffix array (int32 view) and document table. */
export class MemoryShardReader implements ShardReader {
  readonly stats: ShardStats;
  private readonly sa: Int32Array;

  constructor(
    private readonly text: Buffer,
    saBytes: Buffer,
    private readonly docs: DocTable,
  ) {
    // The typed view needs 4-byte alignment; fs buffers of this size own their ArrayBuffer, so no copy in practice.
    let aligned = saBytes;
    if (saBytes.byteOffset % 4 !== 0) {
      aligned = Buffer.allocUnsafeSlow(saBytes.length); // owns its ArrayBuffer, so offset 0
      saBytes.copy(aligned);
    }
    this.sa = new Int32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4);
    this.stats = { textBytes: text.length, docCount: docs.docCount, pointerBytes: 4 };
  }

  find(query: Uint8Array): RankInterval {
    const n = this.text.length;
    if (query.length === 0) return { lo: 0, hi: n };
    const out: UpperLimit = { limit: n };
    const lo = bound(this.text, this.sa, query, 0, n, false, out);
    const hi = bound(this.text, this.sa, query, lo, out.limit, true);
    return { lo, hi };
  }

  readText(start: number, end: number): Uint8Array {
    return this.text.subarray(Math.max(0, start), Math.min(this.text.length, end));
  }

  narrow(iv: RankInterval, depth: number, byte: number): RankInterval {
    const { text, sa } = this;
    const n = text.length;
    // A suffix that ends before `depth` sorts first: its "byte" there counts as -1.
    const at = (r: number): number => { const p = (sa[r] as number) + depth; return p < n ? (text[p] as number) : -1; };
    let a = iv.lo;
    let b = iv.hi;
    while (a < b) { const m = (a + b) >>> 1; if (at(m) < byte) a = m + 1; else b = m; }
    const lo = a;
    b = iv.hi;
    while (a < b) { const m = (a + b) >>> 1; if (at(m) <= byte) a = m + 1; else b = m; }
    return { lo, hi: a };
  }

  count(query: Uint8Array): number {
    if (query.length === 0) return this.text.length - this.docs.docCount;
    const { lo, hi } = this.find(query);
    return hi - lo;
  }

  locate(rank: number): Location {
    const pos = this.pointer(rank);
    const doc = this.docs.docAt(pos);
    return { doc, offset: Math.max(0, pos - this.docs.docStart(doc)), pos };
  }

  window(rank: number, query: Uint8Array, maxCtxLen: number): DocWindow {
    const pos = this.pointer(rank);
    const doc = this.docs.docAt(pos);
    return buildDocWindow({
      doc,
      docStart: this.docs.docStart(doc),
      docEnd: this.docs.docEnd(doc),
      pos,
      query,
      maxCtxLen,
      read: (start, end) => this.text.subarray(start, end),
    });
  }

  documentLength(doc: number): number {
    this.docs.checkDoc(doc);
    return this.docs.docEnd(doc) - this.docs.docStart(doc);
  }

  documentBytes(doc: number): Buffer {
    this.docs.checkDoc(doc);
    // A copy: callers may keep or change it without touching the index.
    return Buffer.from(this.text.subarray(this.docs.docStart(doc), this.docs.docEnd(doc)));
  }

  close(): void {
    // Nothing to release: the buffers go with the reader.
  }

  private pointer(rank: number): number {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.sa.length) {
      throw new RangeError(`rank ${rank} is outside [0, ${this.sa.length})`);
    }
    return this.sa[rank] as number;
  }
}
