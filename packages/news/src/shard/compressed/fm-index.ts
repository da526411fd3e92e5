import { ALPHABET, blockTree } from './huffman.ts';
import { RankBits, blockChunks, blockWords } from './rank-bits.ts';

/** The stored parts of an FM-index over T$ (see DESIGN.md): what the builder writes and the reader loads. */
export interface FmParts {
  /** Text length n (the BWT has n + 1 entries: the virtual sentinel's suffix is rank 0). */
  readonly textBytes: number;
  /** Symbols per wavelet-tree block (a power of two ≤ 2^15, so per-block counts fit a u16). */
  readonly blockSymbols: number;
  /** Rank (in T$) of the suffix starting at text position 0: the BWT row holding the sentinel. */
  readonly dollarRank: number;
  /** Per block, 256 u16 symbol counts of the stored BWT (the sentinel row holds FILL). */
  readonly counts: Uint16Array;
  /** Per block, 256 Huffman code lengths. */
  readonly lengths: Uint8Array;
  /**
   * Every block's wavelet-tree bits (see rank-bits.ts): plain words (the builder's output, format versions 1–3)
   * or the hybrid stream (version 4; `rrr`: with RRR chunks, version 5).
   */
  readonly bits: { readonly words: Uint32Array } | { readonly hybrid: Uint8Array; readonly rrr: boolean };
}

/** What the C locate walk and backward search (native/fm_locate.c) read: FmIndex's own RAM arrays, shared, never copied. */
export interface FmArrays {
  readonly blockInfo: Int32Array;
  readonly nodes: Int32Array;
  readonly dir: Uint32Array;
  readonly stream: Uint8Array;
  readonly occ: Uint32Array;
  readonly below: Float64Array;
  /** Per block and byte: its Huffman code length and path (the backward search's rank reads these). */
  readonly lens: Uint8Array;
  readonly paths: Uint32Array;
  /** Occurrences of each byte in the whole BWT (the sentinel's FILL not counted). */
  readonly totals: Float64Array;
  readonly rows: number;
  readonly logBlock: number;
  readonly dollar: number;
}

/** Byte stored in the sentinel's BWT row. Its rank is corrected, so every byte value 0x00–0xFF stays searchable. */
export const FILL = 0;

/**
 * Count and rank queries over the BWT of T$ (T = shard text, $ = a virtual sentinel below every byte), one
 * Huffman-shaped wavelet tree per block of `blockSymbols` BWT rows ("fixed block compression boosting").
 * Rank r in T$ is rank r − 1 of the suffix-array kind: $ sorts first, exactly as the SA kind's "a suffix that is a
 * prefix of another sorts first".
 */
export class FmIndex {
  readonly rows: number;
  private readonly logBlock: number;
  private readonly blockMask: number;
  private readonly dollar: number;
  /** occ[b·256 + c]: stored count of c in rows [0, b·B). */
  private readonly occ: Uint32Array;
  /** C[c]: rows before the first suffix starting with c (the sentinel's row included). */
  private readonly below: Float64Array;
  private readonly totals: Float64Array;
  private readonly lens: Uint8Array;
  private readonly paths: Uint32Array;
  /**
   * Per block, interleaved (one cache line for both): [2b] global id of the root node, or −(c + 1) when the block
   * holds one symbol only; [2b + 1] the block's first hybrid chunk of bits (rank-bits.ts).
   */
  private readonly blockInfo: Int32Array;
  /**
   * Per wavelet node, interleaved (a level of an LF step or rank reads one 16-byte record, not four arrays: locate
   * is bound by cache misses): [4k] first bit in the block, [4k + 1] ones before it, [4k + 2] child for bit 0,
   * [4k + 3] child for bit 1 (a child < 0 is the leaf −(c + 1)).
   */
  private readonly nodes: Int32Array;
  private readonly bits: RankBits;

  constructor(p: FmParts) {
    this.rows = p.textBytes + 1;
    this.logBlock = Math.log2(p.blockSymbols);
    this.blockMask = p.blockSymbols - 1;
    this.dollar = p.dollarRank;
    const blocks = Math.ceil(this.rows / p.blockSymbols);
    this.occ = new Uint32Array((blocks + 1) * ALPHABET);
    this.lens = p.lengths;
    this.paths = new Uint32Array(blocks * ALPHABET);
    this.blockInfo = new Int32Array(2 * blocks);
    const chunkBase = new Uint32Array(blocks + 1);
    const blockBits = new Uint32Array(blocks);
    const trees = [];
    let nodes = 0;
    for (let b = 0; b < blocks; b++) {
      const counts = p.counts.subarray(b * ALPHABET, (b + 1) * ALPHABET);
      const lens = p.lengths.subarray(b * ALPHABET, (b + 1) * ALPHABET);
      for (let c = 0; c < ALPHABET; c++)
        this.occ[(b + 1) * ALPHABET + c] = (this.occ[b * ALPHABET + c] as number) + (counts[c] as number);
      const tree = blockTree(lens, counts);
      this.paths.set(tree.path, b * ALPHABET);
      blockBits[b] = tree.bits;
      chunkBase[b + 1] = (chunkBase[b] as number) + blockChunks(tree.bits);
      this.blockInfo[2 * b] = tree.child0.length > 0 ? nodes : -(counts.findIndex((n) => n > 0) + 1);
      this.blockInfo[2 * b + 1] = chunkBase[b] as number;
      nodes += tree.child0.length;
      trees.push(tree);
    }
    // Block starts are stored as Int32 (a part's bits stay far below 2^31 chunks: 2^31 text bytes × ~0.5 B/B).
    if ((chunkBase[blocks] as number) >= 2 ** 31)
      throw new RangeError(`${chunkBase[blocks]} chunks of bits do not fit the block table`);
    if ('words' in p.bits) {
      let words = 0;
      for (const bits of blockBits) words += blockWords(bits);
      if (p.bits.words.length !== words)
        throw new RangeError(`the block trees need ${words} words of bits, got ${p.bits.words.length}`);
      this.bits = RankBits.fromWords(p.bits.words, blockBits);
    } else {
      this.bits = new RankBits(p.bits.hybrid, Array.from(blockBits, blockChunks), p.bits.rrr);
    }
    this.nodes = new Int32Array(4 * nodes);
    trees.forEach((t, b) => {
      const first = this.blockInfo[2 * b] as number;
      for (let k = 0; k < t.child0.length; k++) {
        const c0 = t.child0[k] as number;
        const c1 = t.child1[k] as number;
        const at = 4 * (first + k);
        this.nodes[at] = t.offset[k] as number;
        this.nodes[at + 1] = this.bits.rank(chunkBase[b] as number, t.offset[k] as number);
        this.nodes[at + 2] = c0 >= 0 ? first + c0 : c0;
        this.nodes[at + 3] = c1 >= 0 ? first + c1 : c1;
      }
    });
    this.totals = new Float64Array(ALPHABET);
    this.below = new Float64Array(ALPHABET + 1);
    let sum = 1; // the sentinel's row
    for (let c = 0; c < ALPHABET; c++) {
      const total = (this.occ[blocks * ALPHABET + c] as number) - (c === FILL && this.rows > 0 ? 1 : 0);
      this.totals[c] = total;
      this.below[c] = sum;
      sum += total;
    }
    this.below[ALPHABET] = sum;
  }

  /** Occurrences of byte c in BWT rows [0, i), 0 ≤ i ≤ rows. */
  rank(c: number, i: number): number {
    if (i >= this.rows) return this.totals[c] as number;
    const b = i >>> this.logBlock;
    const k = (b << 8) | c;
    let r = this.occ[k] as number;
    const len = this.lens[k] as number;
    let local = i & this.blockMask;
    let node = this.blockInfo[2 * b] as number;
    if (len === 0) {
      if (node !== -(c + 1)) local = 0;
    } else {
      const base = this.blockInfo[2 * b + 1] as number;
      const path = this.paths[k] as number;
      const nodes = this.nodes;
      for (let d = 0; d < len; d++) {
        const at = node << 2;
        const ones = this.bits.rank(base, (nodes[at] as number) + local) - (nodes[at + 1] as number);
        if ((path >>> d) & 1) {
          local = ones;
          node = nodes[at + 3] as number;
        } else {
          local -= ones;
          node = nodes[at + 2] as number;
        }
      }
    }
    r += local;
    return c === FILL && i > this.dollar ? r - 1 : r;
  }

  /**
   * Backward search: the T$ rows [sp, ep) of suffixes starting with q. Both ends stay exact even when the
   * interval is empty, so `sp` is always the number of suffixes sorting before q (the SA kind's lower bound).
   * `countOnly` stops at the first empty interval instead (see `count`), as the C search does.
   */
  search(q: Uint8Array, countOnly = false): { sp: number; ep: number } {
    let sp = 0;
    let ep = this.rows;
    for (let k = q.length - 1; k >= 0 && !(countOnly && sp === ep); k--) {
      const c = q[k] as number;
      const base = this.below[c] as number;
      if (sp === ep) {
        sp = base + this.rank(c, sp);
        ep = sp;
      } else {
        sp = base + this.rank(c, sp);
        ep = base + this.rank(c, ep);
      }
    }
    return { sp, ep };
  }

  /**
   * ep − sp of `search(q)`, stopping at the first empty interval: then no suffix starts with q whatever its
   * remaining bytes (only `find` needs the exact insertion point an empty interval keeps).
   */
  count(q: Uint8Array): number {
    const { sp, ep } = this.search(q, true);
    return ep - sp;
  }

  /** The arrays LF and rank read, for the C locate walk and backward search (its mirrors of `lf` and `search`). */
  arrays(): FmArrays {
    const { blockInfo, nodes, occ, below, lens, paths, totals, rows, logBlock, dollar } = this;
    return {
      blockInfo,
      nodes,
      dir: this.bits.dir,
      stream: this.bits.stream,
      occ,
      below,
      lens,
      paths,
      totals,
      rows,
      logBlock,
      dollar,
    };
  }

  /** The rows [lo, hi) of the suffixes starting with byte c (the sentinel's row 0 starts with none). */
  rowsStartingWith(c: number): { lo: number; hi: number } {
    return { lo: this.below[c] as number, hi: this.below[c + 1] as number };
  }

  /** The first byte of the suffix at `row`; −1 for the sentinel's row 0. With `lf`, what reads text back (BWT[i] is the first byte of row LF(i)). */
  firstByte(row: number): number {
    if (row <= 0) return -1;
    let lo = 0;
    let hi = ALPHABET - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.below[mid] as number) <= row) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** LF(i): the row of the suffix one text position earlier; −1 for the sentinel's row (text position 0). */
  lf(i: number): number {
    if (i === this.dollar) return -1;
    const b = i >>> this.logBlock;
    let local = i & this.blockMask;
    let node = this.blockInfo[2 * b] as number;
    const base = this.blockInfo[2 * b + 1] as number;
    const nodes = this.nodes;
    while (node >= 0) {
      const at = node << 2;
      const rb = this.bits.rankBit(base, (nodes[at] as number) + local);
      const ones = (rb >>> 1) - (nodes[at + 1] as number);
      if (rb & 1) {
        local = ones;
        node = nodes[at + 3] as number;
      } else {
        local -= ones;
        node = nodes[at + 2] as number;
      }
    }
    const c = -node - 1;
    const r = (this.occ[(b << 8) | c] as number) + local;
    return (this.below[c] as number) + (c === FILL && i > this.dollar ? r - 1 : r);
  }
}
