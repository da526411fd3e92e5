import type { DocTable } from '../doc-table.ts';
import { ShardReaderBase } from '../reader-base.ts';
import type { RankInterval, ShardStats } from '../types.ts';
import { narrowInterval, type SuffixByte } from './narrow.ts';

/** Written by a lower-bound search: the smallest rank it probed whose |query|-prefix is greater than the query. */
interface UpperLimit {
  limit: number;
}

/**
 * First rank in [lo, hi) whose suffix is ≥ query (upper = false) or whose |query|-prefix is > query (upper = true).
 * Keeps the common-prefix lengths of both bounds so each probe compares only past min(llcp, rlcp) bytes.
 * A lower-bound search also narrows `out.limit`: every rank from there on lies past the query's interval, so the
 * upper-bound search need not look further (for a phrase absent from a shard it then takes no step at all).
 */
function bound(
  text: Buffer,
  sa: Int32Array,
  q: Uint8Array,
  lo: number,
  hi: number,
  upper: boolean,
  out?: UpperLimit,
): number {
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
export class MemoryShardReader extends ShardReaderBase {
  readonly kind = 'sa' as const;
  readonly stats: ShardStats;

  /** @param sa the suffix array as signed 32-bit pointers (format v1 texts are < 2^31 bytes). */
  constructor(
    private readonly text: Buffer,
    private readonly sa: Int32Array,
    docs: DocTable,
  ) {
    super(docs);
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

  narrow(iv: RankInterval, depth: number, byte: number): RankInterval {
    return narrowInterval(iv, depth, byte, this.suffixByte);
  }

  private readonly suffixByte: SuffixByte = (r, depth) => {
    const p = (this.sa[r] as number) + depth;
    return p < this.text.length ? (this.text[p] as number) : -1;
  };

  close(): void {
    // Nothing to release: the buffers go with the reader.
  }

  /** Text bytes [start, end), clipped to the text (public: the matching rules read a few bytes around a match). */
  readText(start: number, end: number): Buffer {
    return this.text.subarray(Math.max(0, start), Math.min(this.text.length, end));
  }

  override positionsInto(lo: number, hi: number, out: Float64Array | Uint32Array, at: number): void {
    this.assertPositionsRange(lo, hi, out, at);
    out.set(this.sa.subarray(lo, hi), at);
  }

  protected textPosition(rank: number): number {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.sa.length) {
      throw new RangeError(`rank ${rank} is outside [0, ${this.sa.length})`);
    }
    return this.sa[rank] as number;
  }
}
