/**
 * `npm run bench:locate-rate`: what the compressed kind's SA sample rate costs and buys. Builds the four real corpora
 * as one compressed shard sampled every 16 text positions, then locates 20,000 random ranks as a shard sampled every
 * R positions would (R = 16, 32, 48, 64: a sample counts only when its position is divisible by R, so the LF steps
 * and sample lookups are the ones such a shard does). Reports mean CPU µs per locate (robust on a shared machine)
 * per round, and the samples' bytes per text byte for a part of MAX_PART_BYTES. Then, on the same text built at the
 * rate 64 (the default before format version 2; 48 since), the TypeScript walk against the addon's C walk (native-locate.ts), one call per locate and in
 * batches of 1,000, and the reader's public locate: mean CPU µs and p50 wall per locate, in one run, interleaved
 * per round. Prints Markdown; writes nothing. Environment: BENCH_DIR (/tmp/news-bench-locate-rate), kept between runs.
 */
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { createShardWriter, indexCompressedShard, openShard } from '../src/shard/index.ts';
import type { FmIndex } from '../src/shard/compressed/fm-index.ts';
import { COMPRESSED_DEFAULTS, readCompressedHeader, type CompressedHeader } from '../src/shard/compressed/format.ts';
import { NativeLocator } from '../src/shard/compressed/native-locate.ts';
import { loadFmParts } from '../src/shard/compressed/open.ts';
import { walkToSample } from '../src/shard/compressed/reader.ts';
import { valueBits, type SaSamples } from '../src/shard/compressed/sa-samples.ts';
import { MAX_PART_BYTES } from '../src/release/part-plan.ts';
import { createRandom } from '../src/corpus/synthetic.ts';
import { CORPORA } from './bench-support.ts';

const ROOT = process.env['BENCH_DIR'] ?? '/tmp/news-bench-locate-rate';
const DIR = join(ROOT, 'shard16');
const DIR64 = join(ROOT, 'shard64');
const RATES = [16, 32, 48, 64];
const RANKS = 20_000;

async function buildOnce(dir: string, sampleRate: number): Promise<void> {
  if (existsSync(join(dir, 'header.json'))) return;
  const writer = createShardWriter(dir);
  for (const c of ['10kgnad-de', 'fundus-testdata-multi', 'livedoor-news-ja', 'reuters21578-en']) {
    const lines = createInterface({
      input: createReadStream(join(CORPORA, c, `${c}.jsonl.gz`)).pipe(createGunzip()),
      crlfDelay: Infinity,
    });
    for await (const line of lines)
      if (line) writer.append(Buffer.from((JSON.parse(line) as { text: string }).text, 'utf8'));
  }
  await writer.finish();
  await indexCompressedShard(dir, {}, { ...COMPRESSED_DEFAULTS, sampleRate });
}

/** The FM-index and samples of the shard in `dir`, as the reader builds them (arrays of their own on each call). */
function openParts(dir: string): { h: CompressedHeader; fm: FmIndex; samples: SaSamples } {
  const h = readCompressedHeader(dir);
  return { h, ...loadFmParts(dir, h) };
}

/** One way to locate every rank of a list; returns the sum of positions (so nothing is optimised away). */
type Way = (ranks: readonly number[]) => number;

/** The rate-64 shard: TypeScript walk vs C walk (single, batched) vs the reader's locate, same ranks. */
function nativeAgainstTypeScript(ranks: readonly number[]): string[] {
  // The TypeScript walk gets arrays of its own: fmOpen may change how the native walk's arrays are paged.
  const { fm, samples } = openParts(DIR64);
  const own = openParts(DIR64);
  const native = NativeLocator.open(own.fm, own.samples);
  if (native === undefined) throw new Error('the addon has no fmOpen: run npm run postinstall');
  const reader = openShard(DIR64, 'memory');
  const rows = Float64Array.from(ranks, (r) => r + 1);
  for (const r of ranks.slice(0, 2000)) {
    if (native.position(r + 1) !== walkToSample(fm, samples, r + 1))
      throw new Error(`rank ${r}: native and TypeScript disagree`);
  }
  const ways: Record<string, Way> = {
    'TypeScript walk (before)': (rs) => rs.reduce((sum, r) => sum + walkToSample(fm, samples, r + 1), 0),
    'C walk, one call per locate': (rs) => rs.reduce((sum, r) => sum + native.position(r + 1), 0),
    'C walk, batches of 1,000 (fmLocateMany)': () => {
      let sum = 0;
      for (let k = 0; k < rows.length; k += 1000)
        for (const p of native.positions(rows.subarray(k, k + 1000))) sum += p;
      return sum;
    },
    'reader.locate (C walk + document lookup)': (rs) => rs.reduce((sum, r) => sum + reader.locate(r).pos, 0),
  };
  const cpu: Record<string, number[]> = {};
  const p50: Record<string, number[]> = {};
  const cold: Record<string, number[]> = {};
  const query = Buffer.from('the');
  for (let round = 0; round < 3; round++) {
    // bench:compressed's pattern: each locate right after a get_doc window (brotli evicts the index from cache).
    for (const name of ['TypeScript walk (before)', 'C walk, one call per locate']) {
      const way = ways[name] as Way;
      const walls = ranks
        .slice(0, 2000)
        .map((r) => {
          reader.window(r, query, 1000);
          const t = process.hrtime.bigint();
          way([r]);
          return Number(process.hrtime.bigint() - t) / 1000;
        })
        .sort((a, b) => a - b);
      (cold[name] ??= []).push(walls[walls.length >> 1] ?? 0);
    }
    for (const [name, way] of Object.entries(ways)) {
      const start = process.cpuUsage();
      if (way(ranks) < 0) throw new Error('unreachable');
      const used = process.cpuUsage(start);
      (cpu[name] ??= []).push((used.user + used.system) / ranks.length);
      if (name.includes('batches')) continue; // a batch has no per-locate wall time
      const walls = ranks
        .slice(0, 5000)
        .map((r) => {
          const t = process.hrtime.bigint();
          way([r]);
          return Number(process.hrtime.bigint() - t) / 1000;
        })
        .sort((a, b) => a - b);
      (p50[name] ??= []).push(walls[walls.length >> 1] ?? 0);
    }
  }
  reader.close();
  const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  return [
    `Rate 64 (the default before compressed format version 2; 48 since), the same text and ranks, 3 rounds interleaved, load average ${load1} (target: locate p50 ≤ 20 µs):`,
    '',
    '| locate | mean CPU µs per locate (rounds) | p50 wall µs, 5,000 single calls (rounds) | p50 wall µs, each after a get_doc window (rounds) |',
    '|---|---|---|---|',
    ...Object.keys(ways).map((name) => {
      const list = (m: Record<string, number[]>): string => (m[name] ?? []).map((v) => v.toFixed(2)).join(', ') || '–';
      return `| ${name} | ${list(cpu)} | ${list(p50)} | ${list(cold)} |`;
    }),
  ];
}

async function main(): Promise<void> {
  await buildOnce(DIR, 16);
  await buildOnce(DIR64, 64);
  const { h, fm, samples } = openParts(DIR);
  // The reader's locate (reader.ts textPosition), with samples thinned to `rate`.
  const locate = (rate: number, row: number): number => {
    for (let steps = 0; ; steps++) {
      const v = samples.at(row);
      if (v >= 0 && v % rate === 0) return v + steps;
      row = fm.lf(row);
      if (row < 0) return steps;
    }
  };
  const random = createRandom(7);
  const rows = Array.from({ length: RANKS }, () => 1 + Math.floor(random() * h.textBytes));
  for (const row of rows.slice(0, 500))
    if (new Set(RATES.map((r) => locate(r, row))).size !== 1) throw new Error(`row ${row}: rates disagree`);
  const cpu: Record<number, number[]> = {};
  for (let round = 0; round < 3; round++) {
    for (const rate of RATES) {
      const start = process.cpuUsage();
      let sum = 0;
      for (const row of rows) sum += locate(rate, row);
      const used = process.cpuUsage(start);
      if (sum < 0) throw new Error('unreachable');
      (cpu[rate] ??= []).push((used.user + used.system) / RANKS);
    }
  }
  const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
  const out = [
    `Real corpora, ${(h.textBytes / 1e6).toFixed(1)} MB in one shard, ${RANKS.toLocaleString('en')} random ranks, 3 rounds, load average ${load1}:`,
    '',
    '| rate | locate, mean CPU µs per call (rounds) | samples + marks per text byte (part of 2^30 bytes) |',
    '|---|---|---|',
    ...RATES.map((rate) => {
      const bytes =
        (Math.ceil(MAX_PART_BYTES / rate) * (valueBits(MAX_PART_BYTES, rate) + 8)) / 8 + (4 * MAX_PART_BYTES) / 256;
      return `| ${rate} | ${(cpu[rate] ?? []).map((v) => v.toFixed(1)).join(', ')} | ${(bytes / MAX_PART_BYTES).toFixed(3)} |`;
    }),
  ];
  process.stdout.write(`${[...out, '', ...nativeAgainstTypeScript(rows.map((r) => r - 1))].join('\n')}\n`);
}

await main();
