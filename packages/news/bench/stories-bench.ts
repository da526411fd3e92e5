/**
 * `npm run bench:stories` (issue 28 item 1): what story clustering costs and how well it finds planted copies.
 * - Quality: synthetic corpora with planted syndicated copies (0, 5, 10, 15 % of words replaced), pairwise
 *   precision and recall of the near stories against the truth (BENCH_STORIES_QUALITY_BYTES of originals, 10 MB).
 * - Build time: the four real corpora built with and without stories, interleaved (BENCH_STORIES_RUNS rounds, 3),
 *   and, when BENCH_STORIES_MONTH names a `news demo-corpus --month … --copies …` file, that month once each way.
 * Replaces its section of BENCHMARKS.md.
 */
import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildRelease, METADATA_MANIFEST_FILE, type MetadataManifest } from '../src/release/index.ts';
import { scorePlantedCopies } from '../src/stories/planted-quality.fixture.ts';
import { CORPORA, writeBenchmarkSection } from './bench-support.ts';
import { machine } from './index-bench-measure.ts';

const WORK = process.env['BENCH_STORIES_DIR'] ?? '/tmp/news-stories-bench';
const RUNS = Number(process.env['BENCH_STORIES_RUNS'] ?? '3');
const QUALITY_BYTES = Number(process.env['BENCH_STORIES_QUALITY_BYTES'] ?? '10e6');
const MONTH = process.env['BENCH_STORIES_MONTH'];
const MONTH_RUNS = Number(process.env['BENCH_STORIES_MONTH_RUNS'] ?? '1');
const log = (msg: string): void => void process.stderr.write(`bench:stories: ${msg}\n`);
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const realInputs = ['10kgnad-de', 'fundus-testdata-multi', 'livedoor-news-ja', 'reuters21578-en'].map((c) =>
  join(CORPORA, c, `${c}.jsonl.gz`),
);

interface Built {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly textBytes: number;
  readonly documents: number;
  readonly storyBytes: number;
  readonly exact: number;
  readonly near: number;
}

async function build(inputs: readonly string[], stories: boolean): Promise<Built> {
  const out = join(WORK, stories ? 'with' : 'without');
  rmSync(out, { recursive: true, force: true });
  // Process CPU (all threads): on a machine shared with other jobs it varies less than wall time.
  const cpu = process.cpuUsage();
  const s = await buildRelease({ inputs, out, indexVersion: 'bench-stories', stories });
  const used = process.cpuUsage(cpu);
  let exact = 0;
  let near = 0;
  if (stories) {
    const manifest = JSON.parse(readFileSync(join(out, METADATA_MANIFEST_FILE), 'utf8')) as MetadataManifest;
    for (const y of manifest.indexes[0]?.stories?.years ?? []) {
      const buf = readFileSync(join(out, y.file));
      const ids = new Uint32Array(buf.buffer.slice(buf.byteOffset + 32, buf.byteOffset + buf.length));
      const base = buf.readUInt32LE(20);
      // A story is counted at its first article (its id is that article's release number).
      for (let i = 0; i < y.doc_count; i++) {
        if (ids[i] === base + i) exact++;
        if (ids[y.doc_count + i] === base + i) near++;
      }
    }
  }
  rmSync(out, { recursive: true, force: true });
  return {
    seconds: s.seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    textBytes: s.textBytes,
    documents: s.documents,
    storyBytes: s.storyBytes,
    exact,
    near,
  };
}

async function timeBuilds(label: string, inputs: readonly string[], runs: number): Promise<string> {
  const with_: Built[] = [];
  const without: Built[] = [];
  for (let r = 0; r < runs; r++) {
    // Alternating order, so a drift in machine load falls on both sides.
    const order = r % 2 === 0 ? [false, true] : [true, false];
    for (const stories of order) {
      const b = await build(inputs, stories);
      (stories ? with_ : without).push(b);
      log(
        `${label} round ${r + 1} ${stories ? 'with' : 'without'} stories: ${b.seconds.toFixed(2)} s wall, ${b.cpuSeconds.toFixed(2)} CPU s (load ${loadAverage()})`,
      );
    }
  }
  const a = median(without.map((b) => b.seconds));
  const b = median(with_.map((x) => x.seconds));
  const ca = median(without.map((x) => x.cpuSeconds));
  const cb = median(with_.map((x) => x.cpuSeconds));
  const w = with_[0] as Built;
  const pct = (x: number, y: number): string => `${((y / x - 1) * 100).toFixed(1)} %`;
  return `| ${label} | ${(w.textBytes / 1e6).toFixed(1)} MB, ${w.documents.toLocaleString('en')} articles | ${runs} | ${a.toFixed(2)} s / ${b.toFixed(2)} s | **${pct(a, b)}** | ${ca.toFixed(2)} s / ${cb.toFixed(2)} s | **${pct(ca, cb)}** | ${(w.storyBytes / w.documents).toFixed(2)} | ${w.exact.toLocaleString('en')} / ${w.near.toLocaleString('en')} |`;
}

async function main(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  const started = new Date().toISOString();
  const loadBefore = loadAverage();
  const quality: string[] = [];
  for (const edits of [0, 0.05, 0.1, 0.15]) {
    const q = await scorePlantedCopies(QUALITY_BYTES, edits);
    quality.push(
      `| ${(edits * 100).toFixed(0)} % | ${q.articles.toLocaleString('en')} | ${q.copies.toLocaleString('en')} | ${q.truePairs.toLocaleString('en')} | ${q.foundPairs.toLocaleString('en')} | **${q.precision.toFixed(4)}** | **${q.recall.toFixed(4)}** |`,
    );
    log(quality.at(-1) as string);
  }
  const builds = [await timeBuilds('real corpora (4)', realInputs, RUNS)];
  if (MONTH)
    builds.push(
      await timeBuilds(
        `synthetic month with planted copies (${(statSync(MONTH).size / 1e6).toFixed(0)} MB gz)`,
        [MONTH],
        MONTH_RUNS,
      ),
    );
  const m = machine();
  const section = `## Distinct stories: clustering cost and quality (npm run bench:stories)

Machine: ${m.nproc} × ${m.model}, ${m.ramGiB} GiB RAM, Node ${process.version}; started ${started}, 1-minute load ${loadBefore} before and ${loadAverage()} after
(other helpers' jobs shared the machine, so build times spread; the with/without pairs ran back to back in alternating order).
Clustering: MinHash by one-permutation hashing, 64 bins of 16 bits, over word 5-shingles (the fast scanner, src/words/word-hashes.ts),
LSH 32 bands × 2 rows, near when the estimated Jaccard ≥ 0.2; exact by xxHash64 of the text (release/DESIGN.md, "Stories").

Planted copies (\`plantCopies\`, 20 % of originals copied 1–3 times to other sites and 1–40 days later, ${(QUALITY_BYTES / 1e6).toFixed(0)} MB of originals, seed 1);
pairwise scores over same-story pairs. Target: precision ≥ 0.95 and recall ≥ 0.9 at ≤ 10 % edited words.

| words replaced | articles | copies | true pairs | found pairs | precision | recall |
|---|---|---|---|---|---|---|
${quality.join('\n')}

Build time, \`buildRelease\` in one process with and without stories (median of the rounds). Target: +≤ 15 %.

| input | text | rounds | wall without / with | wall cost | CPU without / with | CPU cost | story bytes / article | exact / near stories |
|---|---|---|---|---|---|---|---|---|
${builds.join('\n')}
`;
  writeBenchmarkSection('## Distinct stories: clustering cost and quality', section);
  log('BENCHMARKS.md updated');
}

await main();
