/**
 * `npm run bench:compressed`: one shard (one "part") per data set, built as both index kinds, then size, build
 * cost and in-memory latency of count, locate, get_doc windows and 1,000-rank pages, side by side, plus ripgrep
 * over the raw text. Data: the four shared corpora as one shard, and optionally a synthetic corpus
 * (BENCH_SYNTHETIC=path of a `news demo-corpus` file) as one shard. Builds run as child processes under
 * /usr/bin/time -v (peak RSS of the build alone). First, every data set is also built as a whole release with
 * `news build --kind compressed` and its bytes per text byte are printed per component, metadata stores included
 * (component-sizes.ts); the real corpora twice, as released (monthly shards) and as one crawl month. Prints Markdown; BENCH_WRITE=1 replaces the section in BENCHMARKS.md.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { createInterface } from 'node:readline';
import { createShardWriter, indexKind, type ShardKind } from '../src/shard/index.ts';
import { COMPRESSED_DEFAULTS } from '../src/shard/compressed/format.ts';
import { CORPORA, writeBenchmarkSection } from './bench-support.ts';
import { releaseSets, sizeTable, type ReleaseSizes } from './component-sizes.ts';
import { machine, percentiles, type Percentiles } from './index-bench-measure.ts';
import { measureReader, mixedQueries, openMeasured, type Latency } from './reader-latency.ts';

const SELF = fileURLToPath(import.meta.url);
const WORK = process.env['BENCH_DIR'] ?? '/tmp/news-bench-compressed';
const log = (msg: string): void => void process.stderr.write(`bench: ${msg}\n`);
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const now = (): number => Number(process.hrtime.bigint()) / 1000;

/** Child mode: `compressed-bench.ts --build KIND DIR INPUT...` writes every article of the inputs into one shard. */
async function buildChild(kind: ShardKind, dir: string, inputs: string[]): Promise<void> {
  rmSync(dir, { recursive: true, force: true });
  const writer = createShardWriter(dir);
  for (const file of inputs) {
    const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
    for await (const line of lines)
      if (line.length > 0) writer.append(Buffer.from((JSON.parse(line) as { text: string }).text, 'utf8'));
  }
  await writer.finish();
  const t = performance.now();
  await indexKind(kind).index(dir);
  process.stdout.write(`${JSON.stringify({ indexSeconds: (performance.now() - t) / 1000 })}\n`);
}

interface Built {
  kind: ShardKind;
  textBytes: number;
  indexSeconds: number;
  wallSeconds: number;
  peakRss: number;
  files: Record<string, number>;
}

function build(kind: ShardKind, dir: string, inputs: string[]): Built {
  const t = performance.now();
  const r = spawnSync(
    '/usr/bin/time',
    ['-v', process.execPath, '--import', 'tsx', SELF, '--build', kind, dir, ...inputs],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  if (r.status !== 0) throw new Error(`build ${kind} failed: ${r.stderr.slice(-2000)}`);
  const files = Object.fromEntries(readdirSync(dir).map((f) => [f, statSync(join(dir, f)).size]));
  const header = JSON.parse(readFileSync(join(dir, 'header.json'), 'utf8')) as { textBytes: number };
  return {
    kind,
    textBytes: header.textBytes,
    files,
    wallSeconds: (performance.now() - t) / 1000,
    indexSeconds: (JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as { indexSeconds: number }).indexSeconds,
    peakRss: Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1] ?? 0) * 1024,
  };
}

function ripgrep(textFile: string, queries: Buffer[]): Percentiles {
  const times: number[] = [];
  for (const q of queries) {
    const t = now();
    spawnSync('rg', ['-a', '-F', '-o', '-c', '-e', q.toString('utf8'), textFile], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    });
    times.push(now() - t);
  }
  return percentiles(times);
}

/** A data set's results; the SA side is absent when it was not built, `fm` when an existing build was reused. */
interface DataSet {
  name: string;
  textBytes: number;
  sa?: Built;
  fm?: Built;
  saLat?: Latency;
  fmLat: Latency;
  rg?: Percentiles;
  rgQueries: number;
}

/**
 * BENCH_REUSE=1 measures a compressed shard left by an earlier run instead of rebuilding it (no build figures).
 * `withSa` false skips the SA kind (this branch's SA indexer cannot hash a suffix array of 2^31 bytes or more,
 * i.e. shards over 512 MiB; the chunked hashing of issue 10 item 1 lifts that).
 */
async function dataSet(name: string, inputs: string[], rgQueries: number, withSa: boolean): Promise<DataSet> {
  const root = join(WORK, name);
  mkdirSync(root, { recursive: true });
  const fmDir = join(root, 'compressed');
  const reuse = process.env['BENCH_REUSE'] === '1' && existsSync(join(fmDir, 'header.json'));
  log(`${name}: ${reuse ? 'reusing' : 'building'} the compressed shard`);
  const fm = reuse ? undefined : build('compressed', fmDir, inputs);
  const sa = withSa ? build('sa', join(root, 'sa'), inputs) : undefined;
  // The compressed reader opens first, so its RSS growth is its own.
  const fmOpen = openMeasured(fmDir);
  const saOpen = sa ? openMeasured(join(root, 'sa')) : undefined;
  const queries = mixedQueries([saOpen?.reader ?? fmOpen.reader]);
  log(`${name}: measuring`);
  const saLat = saOpen ? measureReader(saOpen, queries) : undefined;
  const fmLat = measureReader(fmOpen, queries, saOpen?.reader);
  const textBytes = fmOpen.reader.stats.textBytes;
  fmOpen.reader.close();
  saOpen?.reader.close();
  const rg = sa ? ripgrep(join(root, 'sa', 'text.bin'), queries.slice(0, rgQueries)) : undefined;
  return { name, textBytes, sa, fm, saLat, fmLat, rg, rgQueries };
}

const us = (v: number): string => (v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${v.toFixed(1)} µs`);
const pq = (p: Percentiles): string => `${us(p.p50)} / ${us(p.p99)}`;
/** Bytes of the shard's files (those starting with one of `names`, or all) per text byte, read from the directory. */
function files(s: DataSet, k: 'sa' | 'fm', names: string[] | undefined): string {
  const dir = join(WORK, s.name, k === 'sa' ? 'sa' : 'compressed');
  if (!existsSync(join(dir, 'header.json'))) return '–';
  const total = readdirSync(dir)
    .filter((f) => !names || names.some((n) => f.startsWith(n)))
    .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
  return (total / s.textBytes).toFixed(3);
}

function report(sets: DataSet[], releases: { name: string; sizes: ReleaseSizes }[]): string {
  const m = machine();
  const head = `| metric | target (issue 10) | ${sets.map((s) => `${s.name}: SA kind | ${s.name}: compressed`).join(' | ')} |`;
  const sep = `|---|---|${sets.map(() => '---|---|').join('')}`;
  const row = (metric: string, target: string, cell: (s: DataSet, kind: 'sa' | 'fm') => string): string =>
    `| ${metric} | ${target} | ${sets.map((s) => `${cell(s, 'sa')} | ${cell(s, 'fm')}`).join(' | ')} |`;
  const lat = (s: DataSet, k: 'sa' | 'fm'): Latency | undefined => (k === 'sa' ? s.saLat : s.fmLat);
  const built = (s: DataSet, k: 'sa' | 'fm'): Built | undefined => (k === 'sa' ? s.sa : s.fm);
  const fromBuild =
    (f: (b: Built) => string) =>
    (s: DataSet, k: 'sa' | 'fm'): string => {
      const b = built(s, k);
      return b ? f(b) : '–';
    };
  const fromLat =
    (f: (l: Latency) => string) =>
    (s: DataSet, k: 'sa' | 'fm'): string => {
      const l = lat(s, k);
      return l ? f(l) : '–';
    };
  return [
    '## Compressed index kind (npm run bench:compressed)',
    '',
    `Measured ${new Date().toISOString().slice(0, 16)}Z on ${m.nproc} cores (${m.model}), ${m.ramGiB} GiB RAM, shared with ~8 other jobs: load average ${LOAD_AT_START} at the start, ${loadAverage()} at the end, so wall times and tails are inflated; compare the two kinds within a column pair.`,
    `One shard per data set (one "part"): ${sets.map((s) => `${s.name} ${(s.textBytes / 1e6).toFixed(1)} MB of text`).join(', ')}. Queries: 1,000 mixed from the shard's own articles (30% 1–4 chars, 50% 5–20, 10% 40–100, 10% absent); 2,000 random ranks for locate and get_doc; "page" = 1,000 consecutive ranks of a frequent query located with their articles' lengths (the shard-side work of a v2 documents page). Memory mode; the compressed kind's answers were checked equal to the SA kind's for every query and rank of the warm-up round.`,
    '',
    '### Where the bytes are: whole releases, compressed kind (`news build --kind compressed`)',
    '',
    ...sizeTable(releases),
    '',
    '### One shard per data set, both kinds',
    '',
    head,
    sep,
    row('index files per text byte', '≤ 0.75 (moonshot 0.5); SA ≤ 5.0', (s, k) => files(s, k, undefined)),
    row('… FM-index (wavelet bits, counts, lengths)', '–', (s, k) => (k === 'fm' ? files(s, k, ['fm-']) : '–')),
    row('… SA samples (1 per 36 text positions, packed) + marks', '–', (s, k) =>
      k === 'fm' ? files(s, k, ['sa-']) : '–',
    ),
    row(
      `… text (zstd level 9 + one dictionary per shard, ${COMPRESSED_DEFAULTS.textBlockBytes >> 10} KiB blocks; SA kind: raw)`,
      '–',
      (s, k) => files(s, k, ['text']),
    ),
    row(
      'index build (sort + structures), wall',
      '≥ 10 MB/s',
      fromBuild((b) => `${b.indexSeconds.toFixed(1)} s (${(b.textBytes / 1e6 / b.indexSeconds).toFixed(1)} MB/s)`),
    ),
    row(
      'build peak RSS (child process)',
      '≤ 16 GB for 20 GB',
      fromBuild((b) => `${(b.peakRss / 1e6).toFixed(0)} MB (${(b.peakRss / b.textBytes).toFixed(2)} B/B)`),
    ),
    row(
      'open (memory mode): time, RSS growth',
      '≤ 18 GB RSS for 20 GB',
      fromLat((l) => `${l.openSeconds.toFixed(2)} s, ${l.rssMB.toFixed(0)} MB`),
    ),
    row(
      'count p50 / p99',
      '≤ 100 µs / ≤ 1 ms',
      fromLat((l) => pq(l.count)),
    ),
    row(
      'locate p50 / p99',
      '≤ 20 µs p50',
      fromLat((l) => pq(l.locate)),
    ),
    row(
      'get_doc window (1,000 B context) p50 / p99',
      '≤ 300 µs p50',
      fromLat((l) => pq(l.window)),
    ),
    row(
      'page of 1,000 ranks p50 / p99',
      '≤ 50 ms p50 (v2 documents)',
      fromLat((l) => pq(l.page)),
    ),
    `| ripgrep \`rg -a -F -o -c\` over the raw text, per query p50 / p99 | (alternative) | ${sets.map((s) => `${s.rg ? `${pq(s.rg)} (first ${s.rgQueries} queries)` : '–'} | `).join(' | ')} |`,
    '',
    'infini-gram mini (published, and measured here by the anchors study on the same real corpora): FM-index 0.42–0.44× text with no fast text access, count p50 63 µs, get_doc (1,000-byte context) p50 4.8 ms in RAM, 9.0 ms with mmap; "seconds" for documents at TB scale (`shared/design/anchors-infinigram.md` §3).',
    '',
  ].join('\n');
}

const LOAD_AT_START = loadAverage();

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--build') {
    await buildChild(args[1] as ShardKind, args[2] as string, args.slice(3));
    return;
  }
  const corpora = ['10kgnad-de', 'fundus-testdata-multi', 'livedoor-news-ja', 'reuters21578-en'].map((c) =>
    join(CORPORA, c, `${c}.jsonl.gz`),
  );
  const synthetic = process.env['BENCH_SYNTHETIC'];
  const releases = await releaseSets(join(WORK, 'releases'), corpora, synthetic, log);
  const sets = [await dataSet('real corpora', corpora, 50, true)];
  if (synthetic) sets.push(await dataSet('synthetic', [synthetic], 10, process.env['BENCH_SYNTHETIC_SA'] !== '0'));
  const text = report(sets, releases);
  process.stdout.write(`${text}\n`);
  if (process.env['BENCH_WRITE'] === '1')
    writeBenchmarkSection('## Compressed index kind (npm run bench:compressed)', text);
  if (process.env['BENCH_KEEP'] !== '1') rmSync(WORK, { recursive: true, force: true });
}

await main();
