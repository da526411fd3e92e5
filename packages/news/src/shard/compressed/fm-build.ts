import { FILL, type FmParts } from './fm-index.ts';
import { ALPHABET, blockTree, huffmanLengths } from './huffman.ts';
import { blockWords } from './rank-bits.ts';
import { SaSampleWriter } from './sa-samples.ts';

export interface FmBuildOptions {
  readonly blockSymbols: number;
  readonly sampleRate: number;
  /** Checked between slices of the work: an aborted build stops with the signal's reason. */
  readonly signal?: AbortSignal;
}

/**
 * Rows handled between two turns of the event loop. A 1 GiB part takes minutes here; without these turns a Ctrl-C
 * (whose handler runs on the loop) waited for the whole part, and the other part sorting at once could not report.
 */
const SLICE_ROWS = 1 << 22;

/** Lets the event loop run (signals, the other part's progress), then stops if the build was aborted. */
async function breathe(signal: AbortSignal | undefined): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  signal?.throwIfAborted();
}

export interface FmBuilt {
  readonly parts: FmParts;
  readonly samples: SaSampleWriter;
}

/**
 * The FM-index of `text` from its suffix array (the SA kind's sort, so ranks agree by construction).
 * BWT[0] belongs to the sentinel's suffix ($ sorts first); BWT[r + 1] = T[SA[r] − 1], or FILL where SA[r] = 0.
 * CONSUMES the suffix array: the BWT is written over its first n + 1 bytes (byte r + 1 is written after SA[r] is
 * read and before SA[r′ > r] at byte 4r′, so nothing unread is overwritten). Memory on top of text + SA: only
 * the wavelet bits (≈ 0.4 n) and the samples.
 */
export async function buildFm(text: Uint8Array, sa: Int32Array, o: FmBuildOptions): Promise<FmBuilt> {
  const n = text.length;
  const rows = n + 1;
  const bwt = n > 0 ? new Uint8Array(sa.buffer, sa.byteOffset, rows) : new Uint8Array(1);
  const samples = new SaSampleWriter(rows, n, o.sampleRate);
  const first = n > 0 ? (text[n - 1] as number) : FILL;
  let dollarRank = 0;
  for (let r = 0; r < n; r++) {
    if ((r & (SLICE_ROWS - 1)) === SLICE_ROWS - 1) await breathe(o.signal);
    const p = sa[r] as number;
    if (p === 0) {
      bwt[r + 1] = FILL;
      dollarRank = r + 1;
    } else {
      bwt[r + 1] = text[p - 1] as number;
    }
    samples.add(r + 1, p);
  }
  bwt[0] = first; // byte 0 held SA[0], read in the first step
  samples.finish();

  const B = o.blockSymbols;
  const blocks = Math.ceil(rows / B);
  const sliceBlocks = Math.max(1, Math.floor(SLICE_ROWS / B));
  const counts = new Uint16Array(blocks * ALPHABET);
  const lengths = new Uint8Array(blocks * ALPHABET);
  let totalWords = 0;
  for (let b = 0; b < blocks; b++) {
    if (b % sliceBlocks === sliceBlocks - 1) await breathe(o.signal);
    const cnt = counts.subarray(b * ALPHABET, (b + 1) * ALPHABET);
    for (let i = b * B, end = Math.min(rows, i + B); i < end; i++) {
      const c = bwt[i] as number;
      cnt[c] = (cnt[c] as number) + 1;
    }
    const lens = huffmanLengths(cnt);
    lengths.set(lens, b * ALPHABET);
    totalWords += blockWords(blockTree(lens, cnt).bits);
  }

  const words = new Uint32Array(totalWords);
  let base = 0;
  for (let b = 0; b < blocks; b++) {
    if (b % sliceBlocks === sliceBlocks - 1) await breathe(o.signal);
    const cnt = counts.subarray(b * ALPHABET, (b + 1) * ALPHABET);
    const tree = blockTree(lengths.subarray(b * ALPHABET, (b + 1) * ALPHABET), cnt);
    const cursor = Uint32Array.from(tree.offset);
    const { child0, child1, path } = tree;
    const lens = lengths.subarray(b * ALPHABET, (b + 1) * ALPHABET);
    for (let i = b * B, end = Math.min(rows, i + B); i < end; i++) {
      const c = bwt[i] as number;
      const len = lens[c] as number;
      const bitsOf = path[c] as number;
      let node = 0;
      for (let d = 0; d < len; d++) {
        const at = cursor[node] as number;
        cursor[node] = at + 1;
        if ((bitsOf >>> d) & 1) {
          words[base + (at >>> 5)] = (words[base + (at >>> 5)] as number) | (1 << (at & 31));
          node = child1[node] as number;
        } else {
          node = child0[node] as number;
        }
      }
    }
    base += blockWords(tree.bits);
  }
  return { parts: { textBytes: n, blockSymbols: B, dollarRank, counts, lengths, words }, samples };
}
