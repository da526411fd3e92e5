/**
 * Huffman shapes for the per-block wavelet trees. Only the code lengths are stored on disk (256 bytes per block);
 * the tree, each symbol's path and each node's bit range are rebuilt from lengths + symbol counts by
 * `blockTree`, which the builder and the reader share, so both lay the bits out identically.
 */

export const ALPHABET = 256;

/** Huffman code lengths (0 = symbol absent, or the only symbol of the block) for these symbol counts. */
export function huffmanLengths(counts: ArrayLike<number>): Uint8Array {
  const lengths = new Uint8Array(ALPHABET);
  const leaves: number[] = [];
  for (let c = 0; c < ALPHABET; c++) if ((counts[c] as number) > 0) leaves.push(c);
  if (leaves.length < 2) return lengths;
  leaves.sort((a, b) => (counts[a] as number) - (counts[b] as number) || a - b);
  // Two-queue merge (leaves sorted, merged nodes created in non-decreasing weight): O(k) after the sort.
  const weight: number[] = leaves.map((c) => counts[c] as number);
  const parent: number[] = new Array<number>(leaves.length).fill(-1);
  let leafAt = 0;
  let mergedAt = leaves.length;
  const take = (): number => {
    if (
      leafAt < leaves.length &&
      (mergedAt >= weight.length || (weight[leafAt] as number) <= (weight[mergedAt] as number))
    )
      return leafAt++;
    return mergedAt++;
  };
  for (let k = 1; k < leaves.length; k++) {
    const a = take();
    const b = take();
    const id = weight.length;
    weight.push((weight[a] as number) + (weight[b] as number));
    parent.push(-1);
    parent[a] = id;
    parent[b] = id;
  }
  // Depth of every node, root last: walk parents from the top down.
  const depth = new Array<number>(weight.length).fill(0);
  for (let id = weight.length - 2; id >= 0; id--) depth[id] = (depth[parent[id] as number] as number) + 1;
  leaves.forEach((c, i) => {
    lengths[c] = depth[i] as number;
  });
  return lengths;
}

/** One block's wavelet-tree shape: canonical Huffman paths and internal nodes in creation order. */
export interface BlockTree {
  /** Internal nodes: child ≥ 0 is another internal node (block-local id), < 0 is leaf symbol −(child + 1). */
  readonly child0: Int32Array;
  readonly child1: Int32Array;
  /** Block-local bit offset of each node's bitvector, and its length (symbols passing through it). */
  readonly offset: Uint32Array;
  readonly size: Uint32Array;
  /** Path bits per symbol, depth d at bit d (0 = left); lengths as given. */
  readonly path: Uint32Array;
  /** Total bits of the block (sum of node sizes). */
  readonly bits: number;
}

/**
 * Canonical Huffman tree for these lengths; node bit ranges follow node ids (root first).
 * Lengths stay ≤ 31: a block holds ≤ 2^18 symbols and a Huffman depth d needs ≥ Fibonacci(d + 2) of them.
 */
export function blockTree(lengths: Uint8Array, counts: ArrayLike<number>): BlockTree {
  const symbols: number[] = [];
  for (let c = 0; c < ALPHABET; c++) if ((lengths[c] as number) > 0) symbols.push(c);
  symbols.sort((a, b) => (lengths[a] as number) - (lengths[b] as number) || a - b);
  const inner = Math.max(0, symbols.length - 1);
  const child0 = new Int32Array(inner).fill(-1);
  const child1 = new Int32Array(inner).fill(-1);
  const size = new Uint32Array(inner);
  const path = new Uint32Array(ALPHABET);
  let nodes = inner > 0 ? 1 : 0;
  let code = 0;
  let prevLen = 0;
  for (const c of symbols) {
    const len = lengths[c] as number;
    code <<= len - prevLen;
    prevLen = len;
    let node = 0;
    let reversed = 0;
    for (let d = 0; d < len; d++) {
      const bit = (code >>> (len - 1 - d)) & 1;
      reversed |= bit << d;
      size[node] = (size[node] as number) + (counts[c] as number);
      const children = bit ? child1 : child0;
      if (d === len - 1) {
        children[node] = -(c + 1);
      } else {
        if ((children[node] as number) < 0) children[node] = nodes++;
        node = children[node] as number;
      }
    }
    path[c] = reversed >>> 0;
    code++;
  }
  const offset = new Uint32Array(inner);
  let bits = 0;
  for (let k = 0; k < inner; k++) {
    offset[k] = bits;
    bits += size[k] as number;
  }
  return { child0, child1, offset, size, path, bits };
}
