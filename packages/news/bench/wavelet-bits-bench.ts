/**
 * `node --import tsx bench/wavelet-bits-bench.ts SHARD_DIR`: bytes per text byte the wavelet-tree bits of a built
 * compressed shard (format 3) would take under each candidate encoding, measured on its own bits (DESIGN.md "Why
 * hybrid chunks, not RRR"). Each block's bits are cut as the reader cuts them (whole chunks from the block's first
 * word); per encoding the payload only, the RAM directories are not counted (rebuilt on load).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bwtBlocks, readCompressedHeader } from '../src/shard/compressed/format.ts';
import { blockTree } from '../src/shard/compressed/huffman.ts';
import { blockWords, popcount } from '../src/shard/compressed/rank-bits.ts';
import { decodeBlockSymbols } from '../src/shard/compressed/stored-tables.ts';

const dir = process.argv[2] ?? '';
const h = readCompressedHeader(dir);
const raw = readFileSync(join(dir, h.files.bits?.name ?? 'fm-bits.u32'));
const words = new Uint32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
const blocks = bwtBlocks(h.textBytes, h.blockSymbols);
const { counts, lengths } = decodeBlockSymbols(readFileSync(join(dir, h.files.symbols?.name ?? 'fm-symbols.bin')), blocks);

const bit = (w: number, i: number): number => ((words[w + (i >>> 5)] as number) >>> (i & 31)) & 1;
/** log2 C(n, k), rounded up: the bits of an RRR offset. */
const logBinom: number[][] = [];
for (const n of [15, 31, 63]) {
  const row: number[] = [];
  let lg = 0;
  for (let k = 0; k <= n; k++) {
    row.push(Math.ceil(lg - 1e-9));
    lg += Math.log2((n - k) / (k + 1));
  }
  logBinom[n] = row;
}
const sizes = new Map<string, number>();
const add = (key: string, bytes: number): void => void sizes.set(key, (sizes.get(key) ?? 0) + bytes);
let usedBits = 0;
let base = 0;
for (let b = 0; b < blocks; b++) {
  const tree = blockTree(lengths.subarray(b * 256, (b + 1) * 256), counts.subarray(b * 256, (b + 1) * 256));
  const span = blockWords(tree.bits) * 32;
  usedBits += tree.bits;
  add('plain (today)', span / 8);
  for (const chunk of [128, 256, 512]) {
    const posBytes = chunk <= 256 ? 1 : 2;
    for (let at = 0; at < span; at += chunk) {
      let changes = 0;
      for (let i = at + 1; i < at + chunk; i++) if (bit(base, i) !== bit(base, i - 1)) changes++;
      add(`hybrid ${chunk}: 1 header byte + min(plain, run boundaries)`, 1 + Math.min(chunk / 8, changes * posBytes));
      add(`uniform-or-plain ${chunk}`, 1 + (changes === 0 ? 0 : chunk / 8));
    }
  }
  for (const n of [15, 31, 63]) {
    const classBits = Math.ceil(Math.log2(n + 1));
    let bitsOut = 0;
    for (let at = 0; at < tree.bits; at += n) {
      let k = 0;
      for (let i = at; i < Math.min(at + n, tree.bits); i++) k += bit(base, i);
      bitsOut += classBits + (logBinom[n]?.[k] ?? 0);
    }
    // + one u32 rank and one u32 offset pointer per 32 RRR blocks (the superblock directory rrr needs on disk).
    add(`RRR ${n} (+ superblocks of 32)`, bitsOut / 8 + Math.ceil(tree.bits / n / 32) * 8);
  }
  base += blockWords(tree.bits);
}
let ones = 0;
for (const w of words) ones += popcount(w);
process.stdout.write(`${dir}: ${h.textBytes} text bytes, ${usedBits} wavelet bits (${(usedBits / h.textBytes).toFixed(3)} per byte), ${(ones / usedBits).toFixed(3)} ones\n\n| encoding | B/B |\n|---|---|\n`);
for (const [k, v] of sizes) process.stdout.write(`| ${k} | ${(v / h.textBytes).toFixed(3)} |\n`);
