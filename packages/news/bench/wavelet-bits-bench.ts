/**
 * `node --import tsx bench/wavelet-bits-bench.ts SHARD_DIR`: bytes per text byte the wavelet-tree bits of a built
 * compressed shard (any format version) would take under each candidate encoding, measured on its own bits
 * (DESIGN.md "Why hybrid chunks, not RRR", "RRR chunks"). The bits are read back through the reader's own RankBits
 * (versions 4–5) or as plain words (1–3), then cut as the reader cuts them (whole chunks from the block's first
 * bit); per encoding the payload only, the RAM directories are not counted (rebuilt on load).
 */
import { bwtBlocks, readCompressedHeader } from '../src/shard/compressed/format.ts';
import { blockTree } from '../src/shard/compressed/huffman.ts';
import { readShardTable } from '../src/shard/compressed/open.ts';
import { blockChunks, blockWords, RankBits } from '../src/shard/compressed/rank-bits.ts';
import { decodeBlockSymbols } from '../src/shard/compressed/stored-tables.ts';

const dir = process.argv[2] ?? '';
const h = readCompressedHeader(dir);
const raw = readShardTable(dir, h, 'bits');
const blocks = bwtBlocks(h.textBytes, h.blockSymbols);
const { counts, lengths } = decodeBlockSymbols(readShardTable(dir, h, 'symbols'), blocks);
const blockBits = Array.from(
  { length: blocks },
  (_, b) => blockTree(lengths.subarray(b * 256, (b + 1) * 256), counts.subarray(b * 256, (b + 1) * 256)).bits,
);

/** Every block's bits as plain words (128-bit aligned blocks, the layout of versions 1–3). */
function plainWords(): Uint32Array {
  if (h.formatVersion < 4) return new Uint32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const ranks = new RankBits(raw, blockBits.map(blockChunks), h.formatVersion >= 5);
  const words = new Uint32Array(blockBits.reduce((n, bits) => n + blockWords(bits), 0));
  for (
    let b = 0, base = 0, word = 0;
    b < blocks;
    base += blockChunks(blockBits[b] as number), word += blockWords(blockBits[b] as number), b++
  ) {
    for (let i = 0; i < (blockBits[b] as number); i++)
      if (ranks.rankBit(base, i) & 1) words[word + (i >>> 5)]! |= 1 << (i & 31);
  }
  return words;
}
const words = plainWords();
const bit = (w: number, i: number): number => ((words[w + (i >>> 5)] as number) >>> (i & 31)) & 1;

/** ⌈log2 C(n, k)⌉ for k = 0..n: the bits of an RRR offset. */
const offsetBits = (n: number): number[] => {
  const row: number[] = [];
  let lg = 0;
  for (let k = 0; k <= n; k++) {
    row.push(Math.ceil(lg - 1e-9));
    lg += Math.log2((n - k) / (k + 1));
  }
  return row;
};
const OFFSET = new Map([32, 64, 128].map((n) => [n, offsetBits(n)]));
/** RRR payload bytes of a 256-bit chunk in sub-blocks of n bits: classes (⌈log2(n + 1)⌉ bits each) and offsets. */
function rrrBytes(get: (i: number) => number, at: number, n: number): number {
  let bits = 0;
  for (let s = at; s < at + 256; s += n) {
    let k = 0;
    for (let i = s; i < s + n; i++) k += get(i);
    bits += Math.ceil(Math.log2(n + 1)) + (OFFSET.get(n)?.[k] ?? 0);
  }
  return Math.ceil(bits / 8);
}

const sizes = new Map<string, number>();
const add = (key: string, bytes: number): void => void sizes.set(key, (sizes.get(key) ?? 0) + bytes);
let base = 0;
for (let b = 0; b < blocks; b++) {
  const span = blockWords(blockBits[b] as number) * 32;
  // The last chunk may reach past the block's plain words (256- vs 128-bit rounding): those bits are 0.
  const get = (i: number): number => (i < span ? bit(base, i) : 0);
  add('plain (versions 1–3)', span / 8);
  for (let at = 0; at < blockChunks(blockBits[b] as number) * 256; at += 256) {
    let changes = 0;
    let ones = 0;
    for (let i = at; i < at + 256; i++) {
      ones += get(i);
      if (i > at && get(i) !== get(i - 1)) changes++;
    }
    const hybrid = Math.min(32, changes);
    const minority = Math.min(ones, 256 - ones) < 32 ? Math.min(ones, 256 - ones) : 32;
    const rrr32 = rrrBytes(get, at, 32);
    add('hybrid 256: plain or runs (version 4)', 1 + hybrid);
    add('hybrid + minority-bit positions', 1 + Math.min(hybrid, minority));
    for (const saving of [1, 5, 9])
      add(
        `hybrid + RRR 8 × 32, when it saves ≥ ${saving} bytes${saving === 5 ? ' (version 5)' : ''}`,
        1 + (rrr32 + saving <= hybrid ? rrr32 : hybrid),
      );
    add('hybrid + RRR 4 × 64', 1 + Math.min(hybrid, rrrBytes(get, at, 64)));
    add('hybrid + RRR 2 × 128', 1 + Math.min(hybrid, rrrBytes(get, at, 128)));
  }
  base += blockWords(blockBits[b] as number);
}
const used = blockBits.reduce((n, bits) => n + bits, 0);
process.stdout.write(
  `${dir}: format ${h.formatVersion}, ${h.textBytes} text bytes, ${used} wavelet bits (${(used / h.textBytes).toFixed(3)} per byte)\n\n| encoding | B/B |\n|---|---|\n`,
);
for (const [k, v] of sizes) process.stdout.write(`| ${k} | ${(v / h.textBytes).toFixed(4)} |\n`);
