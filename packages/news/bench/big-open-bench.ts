/**
 * `npm run bench:big-open`: issue 24's check. One crawl month of 0.7 GB (`news demo-corpus --month`), built by
 * `news build` with the defaults (`--kind sa`, default `--memory`: one part, a 2.8 GB suffix array), then served
 * in memory by `news serve`. Reports build time and peak RSS, serve start time, the worker's RSS per text byte,
 * and checks the counts of fixed phrases over HTTP against a plain scan of the corpus (exits 1 on a mismatch).
 * Replaces the "One crawl month served in memory" section of BENCHMARKS.md.
 * Environment: BENCH_BIG_OPEN_BYTES (default 7e8 text bytes), BENCH_BIG_OPEN_DIR (/tmp/news-big-open; keep it
 * outside the repository: it is deleted afterwards), BENCH_BIG_OPEN_KEEP=1 keeps the data,
 * BENCH_BIG_OPEN_REUSE=1 serves the release already in the folder instead of building it (no build figures),
 * BENCH_BIG_OPEN_FROM_SOURCE=1 runs the CLIs from the TypeScript sources through tsx instead of the bundle.
 * By default the CLI bundle (dist/cli.mjs, what `npm install` builds and a user's `news` runs) is rebuilt from the
 * sources first, so the figures are the bundle's whatever the checkout's state; the section says which ran.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { INDEX_MANIFEST_FILE, type IndexManifest } from '../src/release/index.ts';
import {
  BIG_OPEN_PHRASES,
  buildOneMonthRelease,
  countOverHttp,
  memoryOf,
  scanCorpusCounts,
  serveRelease,
  type RunResult,
} from '../test/support/one-month-release.ts';
import { REPO, spawnListening, writeBenchmarkSection } from './bench-support.ts';
import { machine } from './index-bench-measure.ts';

const env = (name: string, fallback: string): string => process.env[name] ?? fallback;
const TEXT_BYTES = Number(env('BENCH_BIG_OPEN_BYTES', '7e8'));
const WORK = env('BENCH_BIG_OPEN_DIR', '/tmp/news-big-open');
const KEEP = process.env['BENCH_BIG_OPEN_KEEP'] === '1';
const REUSE = process.env['BENCH_BIG_OPEN_REUSE'] === '1';
const FROM_SOURCE = process.env['BENCH_BIG_OPEN_FROM_SOURCE'] === '1';
const HEADING = '## One crawl month served in memory (npm run bench:big-open)';
// Issue 24's targets for the served month.
const TARGET_RSS_PER_BYTE = 5.2;
const TARGET_START_S = 10;
const log = (msg: string): void => void process.stderr.write(`bench:big-open: ${msg}\n`);
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const gb = (bytes: number): string => (bytes / 1e9).toFixed(2);

/** The worker alone with sizes checked but no sha256: the part of the start that loading the shard takes. */
async function loadOnly(release: string, indexVersion: string): Promise<{ ms: number; rss: number }> {
  const started = performance.now();
  const { child } = await spawnListening([
    'worker',
    '--release',
    release,
    '--index-version',
    indexVersion,
    '--port',
    '0',
    '--verify',
    'sizes',
  ]);
  const ms = performance.now() - started;
  const { rss } = memoryOf(child.pid);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  return { ms, rss };
}

/**
 * What the bins run (scripts/cli-launch.mjs): the bundle, rebuilt here from the sources, or the sources through tsx
 * (RUN_FROM_SOURCE=1, inherited by every CLI this bench spawns). The two differ in the worker's RSS (tsx's loader
 * thread and its compiled modules) and in each process's start.
 */
function chooseCli(): string {
  if (FROM_SOURCE) {
    process.env['RUN_FROM_SOURCE'] = '1';
    return 'the TypeScript sources through tsx (BENCH_BIG_OPEN_FROM_SOURCE=1)';
  }
  delete process.env['RUN_FROM_SOURCE'];
  const r = spawnSync(process.execPath, ['scripts/cli-bundle.mjs', 'packages/news'], { cwd: REPO, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`rebuilding the CLI bundle failed: ${r.stderr}`);
  return 'the bundle `packages/news/dist/cli.mjs`, rebuilt from the sources at the start (what `npm install` builds)';
}

async function main(): Promise<void> {
  const loadBefore = loadAverage();
  const cli = chooseCli();
  log(`CLIs run ${cli}`);
  const started = new Date().toISOString().slice(0, 16);
  const corpus = `${WORK}/one-month.jsonl.gz`;
  const release = `${WORK}/release`;
  let build: { corpusRun: RunResult; buildRun: RunResult } | undefined;
  if (REUSE && existsSync(`${release}/${INDEX_MANIFEST_FILE}`)) {
    log(`serving the release already in ${release}`);
  } else {
    mkdirSync(WORK, { recursive: true });
    log(`generating ${gb(TEXT_BYTES)} GB in one month and building it with the defaults into ${WORK} …`);
    build = await buildOneMonthRelease(WORK, TEXT_BYTES);
  }
  const manifest = JSON.parse(readFileSync(`${release}/${INDEX_MANIFEST_FILE}`, 'utf8')) as IndexManifest;
  const index = manifest.indexes[0];
  if (index === undefined) throw new Error(`${release} has no index`);
  const textBytes = index.totals.text_bytes;

  log('starting news serve (memory mode) …');
  const serving = await serveRelease(release);
  let counts: number[];
  let rss: { rss: number; peak: number };
  try {
    counts = await Promise.all(BIG_OPEN_PHRASES.map((p) => countOverHttp(serving.url, p)));
    rss = memoryOf(serving.workerPid);
  } finally {
    await serving.stop();
  }
  log('starting news worker --verify sizes (loading without hashing) …');
  const load = await loadOnly(release, manifest.index_version);
  log('scanning the corpus for the reference counts …');
  const scanned = await scanCorpusCounts(corpus, BIG_OPEN_PHRASES);
  const agree = counts.every((c, i) => c === scanned[i]);

  const m = machine();
  const rssPerByte = rss.rss / textBytes;
  const startS = serving.startMs / 1000;
  const buildRow =
    build === undefined
      ? '| `news build` (defaults) | not run (BENCH_BIG_OPEN_REUSE=1) | – |'
      : `| \`news build\` (defaults): wall, MB/s, peak RSS | ${(build.buildRun.ms / 1000).toFixed(0)} s, ${(textBytes / 1e6 / (build.buildRun.ms / 1000)).toFixed(1)} MB/s, ${gb(build.buildRun.peakRssBytes)} GB (${(build.buildRun.peakRssBytes / textBytes).toFixed(2)} B/B) | – |`;
  const section = `${HEADING}

Machine: ${m.nproc} cores (${m.model}), ${m.ramGiB} GiB RAM, Node ${process.version}. Run on ${started}Z; load average ${loadBefore} at the start, ${loadAverage()} at the end.
Data: \`news demo-corpus --bytes ${TEXT_BYTES} --month 2024-03\` (${gb(textBytes)} GB of text with separators, ${index.totals.documents} articles, ${index.shards.length} shard${index.shards.length === 1 ? '' : 's'}: ${index.shards.map((s) => `${s.shard_id}, ${gb(s.files.find((f) => f.name === 'sa.u32')?.bytes ?? 0)} GB suffix array`).join('; ')}).
Served by \`news serve\` (worker in memory mode, \`--verify full\`: every file's sha256 checked at start). CLIs run: ${cli}. Issue 24: the worker used to die at start here (readFileSync refuses files over 2 GiB).

| Measurement | this run | target |
|---|---|---|
${buildRow}
| \`news serve\` start (spawn to URL: files hashed and loaded, gateway up) | ${startS.toFixed(1)} s | ≤ ${TARGET_START_S} s |
| \`news worker --verify sizes\` start (spawn to listening: files loaded, not hashed); its RSS | ${(load.ms / 1000).toFixed(1)} s; ${(load.rss / textBytes).toFixed(3)} B/B | – |
| worker RSS after the counts, per text byte | ${gb(rss.rss)} GB, ${rssPerByte.toFixed(3)} B/B (peak ${(rss.peak / textBytes).toFixed(3)}) | ≤ ${TARGET_RSS_PER_BYTE} B/B |
| HTTP counts equal to a scan of the corpus | ${agree ? 'yes' : 'NO'}: ${BIG_OPEN_PHRASES.map((p, i) => `"${p}" ${String(counts[i])}`).join(', ')} | all equal |
`;
  writeBenchmarkSection(HEADING, section);
  process.stdout.write(section);
  if (!KEEP) rmSync(WORK, { recursive: true, force: true });
  if (!agree) {
    log(`counts differ from the scan: served ${counts.join(',')}, scanned ${scanned.join(',')}`);
    process.exitCode = 1;
  }
}

await main();
