import { FILL, type FmParts } from './fm-index.ts';
import { ALPHABET, type BlockTree, blockTree, huffmanLengths } from './huffman.ts';
import { blockWords, encodeHybrid } from './rank-bits.ts';
import { type FmBuildAddon, loadFmBuild } from './native-build.ts';
import { allocateSamples, type SampleArrays, SaSampleWriter, valueBits } from './sa-samples.ts';

export interface FmBuildOptions {
  readonly blockSymbols: number;
  readonly sampleRate: number;
  /** Checked between slices of the work: an aborted build stops with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * Which implementation runs the passes over every row: the addon's (native/fm_build.c, the default when the
   * addon has it) or the TypeScript reference (tests compare the two byte for byte).
   */
  readonly passes?: 'native' | 'typescript';
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
  readonly parts: FmParts & { readonly bits: { readonly hybrid: Uint8Array } };
  readonly samples: SampleArrays;
}

/**
 * The FM-index of `text` from its suffix array (the SA kind's sort, so ranks agree by construction).
 * BWT[0] belongs to the sentinel's suffix ($ sorts first); BWT[r + 1] = T[SA[r] − 1], or FILL where SA[r] = 0.
 * CONSUMES the suffix array: the BWT is written over its first n + 1 bytes (byte r + 1 is written after SA[r] is
 * read and before SA[r′ > r] at byte 4r′, so nothing unread is overwritten). Memory on top of text + SA: only
 * the wavelet bits (≈ 0.4 n) and the samples.
 */
export async function buildFm(text: Uint8Array, sa: Int32Array, o: FmBuildOptions): Promise<FmBuilt> {
  const native = o.passes === 'typescript' ? undefined : loadFmBuild();
  if (o.passes === 'native' && native === undefined)
    throw new Error('buildFm: the addon has no build passes; rebuild it with npm run postinstall');
  const n = text.length;
  const rows = n + 1;
  const bwt = n > 0 ? new Uint8Array(sa.buffer, sa.byteOffset, rows) : new Uint8Array(1);
  const { samples, dollarRank } = native
    ? await bwtRowsNative(native, text, sa, bwt, o)
    : await bwtRowsTypeScript(text, sa, bwt, o);
  bwt[0] = n > 0 ? (text[n - 1] as number) : FILL; // byte 0 held SA[0], read in the first step

  const B = o.blockSymbols;
  const blocks = Math.ceil(rows / B);
  const sliceBlocks = Math.max(1, Math.floor(SLICE_ROWS / B));
  const counts = new Uint16Array(blocks * ALPHABET);
  const lengths = new Uint8Array(blocks * ALPHABET);
  let totalWords = 0;
  const blockBits = new Uint32Array(blocks);
  for (let b = 0; b < blocks; b++) {
    if (b % sliceBlocks === 0) {
      if (b > 0) await breathe(o.signal);
      const to = Math.min(blocks, b + sliceBlocks);
      if (native) native.fmBlockCounts(bwt, rows, B, b, to, counts);
      else countBlocksTypeScript(bwt, rows, B, b, to, counts);
    }
    const cnt = counts.subarray(b * ALPHABET, (b + 1) * ALPHABET);
    const lens = huffmanLengths(cnt);
    lengths.set(lens, b * ALPHABET);
    blockBits[b] = blockTree(lens, cnt).bits;
    totalWords += blockWords(blockBits[b] as number);
  }

  const words = new Uint32Array(totalWords);
  let base = 0;
  for (let b = 0; b < blocks; b++) {
    if (b % sliceBlocks === sliceBlocks - 1) await breathe(o.signal);
    const cnt = counts.subarray(b * ALPHABET, (b + 1) * ALPHABET);
    const lens = lengths.subarray(b * ALPHABET, (b + 1) * ALPHABET);
    const tree = blockTree(lens, cnt);
    const cursor = Uint32Array.from(tree.offset);
    const from = b * B;
    const to = Math.min(rows, from + B);
    if (native) native.fmFillBlock(bwt, from, to, lens, tree.path, tree.child0, tree.child1, cursor, words, base);
    else fillBlockTypeScript(bwt, from, to, lens, tree, cursor, words, base);
    base += blockWords(tree.bits);
  }
  // Laid out plain (the fill passes set bits at random positions), then stored as hybrid chunks (format 4; RRR chunks since 5).
  await breathe(o.signal);
  return {
    parts: {
      textBytes: n,
      blockSymbols: B,
      dollarRank,
      counts,
      lengths,
      bits: { hybrid: encodeHybrid(words, blockBits), rrr: true },
    },
    samples,
  };
}

interface BwtRows {
  readonly samples: SampleArrays;
  readonly dollarRank: number;
}

/** BWT rows 1..n and their samples, in slices of SLICE_ROWS, by the addon. */
async function bwtRowsNative(
  native: FmBuildAddon,
  text: Uint8Array,
  sa: Int32Array,
  bwt: Uint8Array,
  o: FmBuildOptions,
): Promise<BwtRows> {
  const n = text.length;
  const samples = allocateSamples(n + 1, n, o.sampleRate);
  const state = new Float64Array(3); // next sample, current chunk, dollar row
  for (let from = 0; ; from += SLICE_ROWS) {
    const to = Math.min(n, from + SLICE_ROWS);
    native.fmBwtRows(
      text,
      sa,
      bwt,
      from,
      to,
      o.sampleRate,
      valueBits(n, o.sampleRate),
      samples.chunkStart,
      samples.rowLow,
      samples.values,
      state,
    );
    if (to === n) break;
    await breathe(o.signal);
  }
  return { samples, dollarRank: state[2] as number };
}

/**
 * The TypeScript reference of the same pass. BWT[r + 1] = T[SA[r] − 1], or FILL where SA[r] = 0; byte r + 1 is
 * written after SA[r] is read and before SA[r′ > r] at byte 4r′, so nothing unread is overwritten.
 */
async function bwtRowsTypeScript(
  text: Uint8Array,
  sa: Int32Array,
  bwt: Uint8Array,
  o: FmBuildOptions,
): Promise<BwtRows> {
  const n = text.length;
  const samples = new SaSampleWriter(n + 1, n, o.sampleRate);
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
  samples.finish();
  return { samples, dollarRank };
}

function countBlocksTypeScript(
  bwt: Uint8Array,
  rows: number,
  B: number,
  fromBlock: number,
  toBlock: number,
  counts: Uint16Array,
): void {
  for (let b = fromBlock; b < toBlock; b++) {
    const cnt = counts.subarray(b * ALPHABET, (b + 1) * ALPHABET);
    for (let i = b * B, end = Math.min(rows, i + B); i < end; i++) {
      const c = bwt[i] as number;
      cnt[c] = (cnt[c] as number) + 1;
    }
  }
}

/** One block's wavelet bits: each symbol walks its path, setting a 1 at the cursor of each node where it goes right. */
function fillBlockTypeScript(
  bwt: Uint8Array,
  from: number,
  to: number,
  lens: Uint8Array,
  tree: BlockTree,
  cursor: Uint32Array,
  words: Uint32Array,
  base: number,
): void {
  const { child0, child1, path } = tree;
  for (let i = from; i < to; i++) {
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
}
