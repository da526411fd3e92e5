/**
 * `npm run bench:scale`: one synthetic crawl month (`news demo-corpus --month`), built with parts, per index kind.
 * Reports build MB/s (wall), peak RSS, index bytes per text byte, disk-mode count p50/p99 over the whole month (every
 * part), the same queries with ripgrep over the decompressed text, and both suffix sorters on the real corpora.
 * Replaces the "Scale" section of BENCHMARKS.md. Big data goes OUTSIDE the repository and is deleted afterwards.
 * Environment: BENCH_SCALE_BYTES (default 2.5e9 text bytes), BENCH_SCALE_PART_BYTES (512 MiB), BENCH_SCALE_KINDS
 * (comma list, default `sa`; any other kind is passed as `news build --kind K`), BENCH_SCALE_DIR (/tmp/news-scale),
 * BENCH_SCALE_QUERIES (300), BENCH_SCALE_RG_QUERIES (12), BENCH_SCALE_KEEP=1 keeps the data.
 * BENCH_SCALE_INPUT: an existing corpus file instead of generating one. BENCH_SCALE_MEMORY: `news build --memory`.
 * BENCH_SCALE_REUSE=1: a kind whose release is already in BENCH_SCALE_DIR/release-KIND is measured, not rebuilt; its
 * build figures come from BENCH_SCALE_DIR/build-KIND.out and .err (stdout and stderr of `/usr/bin/time -v news build`).
 * BENCH_SCALE_PART_DIRS=dir,dir…: only measure these finished part directories (shards) in memory, e.g. the parts a
 * month build has finished so far, into the section "Scale: finished parts". BENCH_SCALE_SORTERS=0 skips the sorter comparison.
 * With the compressed kind, the bytes per text byte of each component are printed for the synthetic month and for the
 * real corpora as released and as one month (built beside it; BENCH_SCALE_REAL=0 skips those two builds). The compressed kind is also served in memory (per part, whole month) and over HTTP for BENCH_SCALE_HTTP_SECONDS (10).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { openRelease, type IndexManifest, type ReleaseIndex } from '../src/release/index.ts';
import { availableSorters, buildSuffixArray } from '../src/suffix-array/index.ts';
import { collectGarbage, CORPORA, NEWS_BIN, writeBenchmarkSection } from './bench-support.ts';
import { releaseSets, releaseSizes, sizeTable, type ReleaseSizes } from './component-sizes.ts';
import {
  buildInChild,
  machine,
  parseTimedBuild,
  percentiles,
  ripgrepScan,
  type ChildBuild,
  type Percentiles,
} from './index-bench-measure.ts';
import { measurePartDirs, measureServing, servingLines, type Serving } from './scale-serving.ts';
import { BIG_OPEN_PHRASES, countOverHttp, scanCorpusCounts, serveRelease } from '../test/support/one-month-release.ts';

const env = (name: string, fallback: string): string => process.env[name] ?? fallback;
const TEXT_BYTES = Number(env('BENCH_SCALE_BYTES', '2.5e9'));
const PART_BYTES = Number(env('BENCH_SCALE_PART_BYTES', String(512 * 2 ** 20)));
const KINDS = env('BENCH_SCALE_KINDS', 'sa').split(',').filter(Boolean);
const WORK = env('BENCH_SCALE_DIR', '/tmp/news-scale');
const QUERIES = Number(env('BENCH_SCALE_QUERIES', '300'));
const RG_QUERIES = Number(env('BENCH_SCALE_RG_QUERIES', '12'));
const INPUT = process.env['BENCH_SCALE_INPUT'];
const MEMORY = process.env['BENCH_SCALE_MEMORY'];
const REUSE = process.env['BENCH_SCALE_REUSE'] === '1';
const HTTP_SECONDS = Number(env('BENCH_SCALE_HTTP_SECONDS', '10'));
const TARGET_BYTES = 20e9;
const REAL_CORPORA = ['10kgnad-de', 'fundus-testdata-multi', 'livedoor-news-ja', 'reuters21578-en'].map((c) =>
  join(CORPORA, c, `${c}.jsonl.gz`),
);
// One section per set of kinds: a month too large for the disk in both kinds is measured kind by kind.
const HEADING = `## Scale: one crawl month in parts, ${KINDS.join(' and ')} kind${KINDS.length > 1 ? 's' : ''}`;
const log = (msg: string): void => void process.stderr.write(`bench:scale: ${msg}\n`);
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const now = (): number => Number(process.hrtime.bigint()) / 1000;

interface KindResult {
  kind: string;
  build: ChildBuild;
  parts: number;
  indexBytesPerTextByte: number;
  textBytes: number;
  count: Percentiles;
  serving?: Serving;
  /** Bytes per component of the whole release, metadata stores included. */
  sizes: ReleaseSizes;
}

/** Queries drawn from the month's own articles (3–40 bytes), a tenth made absent. */
function drawQueries(index: ReleaseIndex, n: number): Buffer[] {
  let seed = 12345;
  const random = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const out: Buffer[] = [];
  while (out.length < n) {
    const shard = index.shards[Math.floor(random() * index.shards.length)];
    if (!shard || shard.reader.stats.docCount === 0) continue;
    const chars = [...shard.reader.documentBytes(Math.floor(random() * shard.reader.stats.docCount)).toString('utf8')];
    const len = 3 + Math.floor(random() * 38);
    const start = Math.floor(random() * Math.max(1, chars.length - len));
    const q = chars.slice(start, start + len).join('');
    out.push(Buffer.from(random() < 0.1 ? `${q}\u2603absent` : q, 'utf8'));
  }
  return out;
}

/** count over every part of the month, from disk (warm page cache: one unmeasured round first). */
function countWholeMonth(index: ReleaseIndex, queries: readonly Buffer[]): Percentiles {
  const samples: number[] = [];
  for (let round = 0; round < 2; round++) {
    for (const q of queries) {
      const t = now();
      let total = 0;
      for (const s of index.shards) total += s.reader.count(q);
      if (round === 1) samples.push(now() - t);
      if (total < 0) throw new Error('unreachable');
    }
  }
  return percentiles(samples);
}

/** Both suffix sorters on the four real corpora concatenated (45.6 MB), MB per CPU-second of the sorting thread. */
async function sorterSpeeds(): Promise<{ sorter: string; mbPerCpuS: number; mbPerWallS: number }[]> {
  if (!existsSync(CORPORA)) return [];
  const parts: Buffer[] = [];
  for (const d of readdirSync(CORPORA, { withFileTypes: true }).filter((e) => e.isDirectory())) {
    for (const f of readdirSync(join(CORPORA, d.name)).filter((x) => x.endsWith('.jsonl.gz'))) {
      for (const line of gunzipSync(readFileSync(join(CORPORA, d.name, f)))
        .toString('utf8')
        .split('\n')) {
        if (line) parts.push(Buffer.from([0xff]), Buffer.from(String((JSON.parse(line) as { text: unknown }).text)));
      }
    }
  }
  const text = Buffer.concat(parts);
  const out = [];
  for (const sorter of availableSorters()) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await buildSuffixArray(text, undefined, sorter);
    const wall = (performance.now() - t) / 1000;
    const used = process.cpuUsage(cpu);
    out.push({
      sorter,
      mbPerCpuS: text.length / 1e6 / ((used.user + used.system) / 1e6),
      mbPerWallS: text.length / 1e6 / wall,
    });
  }
  return out;
}

/** The kind's figures from its manifest and whole-month counts from disk (the release is closed on return). */
async function countFromDisk(kind: string, out: string, build: ChildBuild): Promise<KindResult> {
  const manifest = JSON.parse(readFileSync(join(out, 'index-manifest.json'), 'utf8')) as IndexManifest;
  const ix = manifest.indexes[0];
  const release = await openRelease(out, { mode: 'disk', verify: 'sizes' });
  try {
    const index = release.indexes.get('news') as ReleaseIndex;
    const queries = drawQueries(index, QUERIES);
    log(`counting ${queries.length} queries over ${index.shards.length} parts from disk`);
    return {
      kind,
      build,
      parts: index.shards.length,
      indexBytesPerTextByte: (ix?.totals.index_bytes ?? 0) / (ix?.totals.text_bytes ?? 1),
      textBytes: ix?.totals.text_bytes ?? 0,
      count: countWholeMonth(index, queries),
      sizes: releaseSizes(out),
    };
  } finally {
    release.close();
  }
}

async function measureKind(kind: string, corpus: string): Promise<KindResult> {
  const out = join(WORK, `release-${kind}`);
  let build: ChildBuild;
  if (REUSE && existsSync(join(out, 'index-manifest.json'))) {
    log(`reusing the kind ${kind} release in ${out}`);
    build = parseTimedBuild(
      readFileSync(join(WORK, `build-${kind}.out`), 'utf8'),
      readFileSync(join(WORK, `build-${kind}.err`), 'utf8'),
    );
  } else {
    log(`building kind ${kind} with --part-bytes ${PART_BYTES} (load ${loadAverage()})`);
    build = buildInChild([corpus], out, `scale-${kind}`, [
      '--part-bytes',
      String(PART_BYTES),
      ...(MEMORY ? ['--memory', MEMORY] : []),
      ...(kind === 'sa' ? [] : ['--kind', kind]),
    ]);
  }
  const result = await countFromDisk(kind, out, build);
  // Only now, with the disk-mode release out of scope, can its arrays be collected before the next copy opens.
  await collectGarbage();
  // The SA kind is served from disk (5 bytes per text byte do not fit RAM at scale); the compressed kind from RAM.
  if (kind === 'compressed') result.serving = await measureServing(out, HTTP_SECONDS, log);
  return result;
}

/** BENCH_SCALE_PART_DIRS: finished parts measured in memory (no build, no HTTP: the worker needs a whole release). */
function partsOnly(dirs: string[]): void {
  const startLoad = loadAverage();
  const s = measurePartDirs(dirs, log);
  const m = machine();
  const heading = '## Scale: finished parts of a compressed month (npm run bench:scale, BENCH_SCALE_PART_DIRS)';
  const section = [
    heading,
    '',
    `Measured ${new Date().toISOString().slice(0, 16)} UTC on ${m.nproc} cores (${m.model}), ${m.ramGiB} GiB RAM, **shared with other jobs**: load average ${startLoad} at the start, ${loadAverage()} at the end.`,
    `${dirs.length} finished part(s) of one synthetic crawl month, ${(s.parts.reduce((n, p) => n + p.textBytes, 0) / 1e9).toFixed(2)} GB of text: all files ${s.indexBytesPerTextByte.toFixed(3)} bytes per text byte (target ≤ 0.75).`,
    '',
    ...servingLines('compressed', s),
  ].join('\n');
  process.stdout.write(`${section}\n`);
  writeBenchmarkSection(heading, section);
}

async function main(): Promise<void> {
  const partDirs = process.env['BENCH_SCALE_PART_DIRS'];
  if (partDirs) {
    partsOnly(partDirs.split(',').filter(Boolean));
    return;
  }
  const startLoad = loadAverage();
  mkdirSync(WORK, { recursive: true });
  const corpus = join(WORK, 'month.jsonl.gz');
  const results: KindResult[] = [];
  let rg: ReturnType<typeof ripgrepScan> | undefined;
  let rgQueries: Buffer[] = [];
  let indexRg: Percentiles | undefined;
  let rgOver = '';
  const servedChecks: string[] = [];
  try {
    if (INPUT === undefined) {
      log(`generating ${TEXT_BYTES / 1e9} GB of text in one crawl month → ${corpus}`);
      const gen = spawnSync(
        process.execPath,
        [NEWS_BIN, 'demo-corpus', '--out', corpus, '--bytes', String(TEXT_BYTES), '--month', '2024-03'],
        { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'warn' } },
      );
      if (gen.status !== 0) throw new Error(`demo-corpus failed: ${gen.stderr.slice(-2000)}`);
    }
    for (const kind of KINDS) results.push(await measureKind(kind, INPUT ?? corpus));
    // Issue 24: every release built here is served by `news serve` (memory mode, the defaults), and its counts must
    // equal a plain scan of the generated corpus; a difference fails the run.
    if (INPUT === undefined) {
      const expected = await scanCorpusCounts(corpus, BIG_OPEN_PHRASES);
      for (const kind of KINDS) {
        log(`serving release-${kind} with news serve and checking its counts against a scan of the corpus`);
        const serving = await serveRelease(join(WORK, `release-${kind}`));
        try {
          const got = await Promise.all(BIG_OPEN_PHRASES.map((p) => countOverHttp(serving.url, p)));
          const same = got.every((n, i) => n === expected[i]);
          servedChecks.push(
            `${kind}: ${same ? 'equal' : '**DIFFERENT**'} (${BIG_OPEN_PHRASES.map((p, i) => `"${p}" ${got[i]}${got[i] === expected[i] ? '' : ` ≠ ${expected[i]}`}`).join(', ')}), \`news serve\` started in ${(serving.startMs / 1000).toFixed(1)} s`,
          );
          if (!same) process.exitCode = 1;
        } finally {
          await serving.stop();
        }
      }
    }
    // ripgrep over the decompressed text (the suffix-array kind's text files, else the uncompressed input), and the
    // index from disk for the same queries.
    const saDir = join(WORK, 'release-sa');
    const rgRelease = existsSync(saDir) ? saDir : join(WORK, `release-${KINDS[0] ?? 'sa'}`);
    const rgTarget = existsSync(saDir) ? join(saDir, 'indexes') : INPUT?.endsWith('.jsonl') ? INPUT : undefined;
    if (rgTarget !== undefined && existsSync(rgRelease)) {
      const release = await openRelease(rgRelease, { mode: 'disk', verify: 'sizes' });
      const index = release.indexes.get('news') as ReleaseIndex;
      rgQueries = drawQueries(index, RG_QUERIES);
      indexRg = countWholeMonth(index, rgQueries);
      release.close();
      log(`ripgrep over ${rgTarget} for ${rgQueries.length} queries`);
      rg = ripgrepScan(rgTarget, rgQueries, existsSync(saDir) ? 'text.bin' : null);
      rgOver = existsSync(saDir) ? "the month's text files" : 'the input JSONL';
    }
  } finally {
    if (process.env['BENCH_SCALE_KEEP'] !== '1') rmSync(WORK, { recursive: true, force: true });
  }
  const sorters = process.env['BENCH_SCALE_SORTERS'] === '0' ? [] : await sorterSpeeds();
  // Beside the synthetic month, the real corpora built the same way (issue 24: synthetic text compresses better).
  const realSizes =
    KINDS.includes('compressed') && process.env['BENCH_SCALE_REAL'] !== '0'
      ? await releaseSets(join(WORK, 'real'), REAL_CORPORA, undefined, log)
      : [];
  rmSync(process.env['BENCH_SCALE_KEEP'] === '1' ? join(WORK, 'real') : WORK, { recursive: true, force: true });
  const endLoad = loadAverage();
  const m = machine();
  const gb = (n: number): string => (n / 1e9).toFixed(2);
  const textBytes = results[0]?.textBytes ?? TEXT_BYTES;
  const lines = [
    `${HEADING} (npm run bench:scale)`,
    '',
    `Measured ${new Date().toISOString().slice(0, 16)} UTC on ${m.nproc} cores (${m.model}), ${m.ramGiB} GiB RAM, **shared with other jobs**: load average ${startLoad} at the start, ${endLoad} at the end.`,
    `**Size: ${gb(textBytes)} GB of synthetic text in one crawl month** (\`news demo-corpus --month 2024-03\`) ${textBytes >= 0.99 * TARGET_BYTES ? '— the size of issue 10. Every figure is measured.' : '— not the 20 GB of issue 10 (why: see the notes after this section). Rows marked *extrapolated* scale the measured figures to 20 GB; every other figure is measured.'}`,
    '',
    '| kind | parts | build wall | build MB/s (wall) | build CPU s | peak RSS | index bytes / text byte | count whole month, disk p50 / p99 |',
    '|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.kind} | ${r.parts} | ${r.build.summary.seconds.toFixed(0)} s | ${r.build.summary.mb_per_s.toFixed(1)} | ${r.build.cpuSeconds.toFixed(0)} | ${gb(r.build.peakRssBytes)} GB | ${r.indexBytesPerTextByte.toFixed(2)} | ${(r.count.p50 / 1000).toFixed(2)} ms / ${(r.count.p99 / 1000).toFixed(2)} ms |`,
    ),
    '',
  ];
  if (rg && indexRg) {
    lines.push(
      `ripgrep (\`rg -a -F -o -c\` over ${rgOver}), ${rgQueries.length} queries: p50 ${rg.perQueryMs.p50.toFixed(0)} ms per query; the index from disk for the same queries: p50 ${(indexRg.p50 / 1000).toFixed(2)} ms (**${(rg.perQueryMs.p50 / (indexRg.p50 / 1000)).toFixed(0)}× faster**).`,
      '',
    );
  }
  for (const r of results.filter((x) => x.kind === 'compressed')) {
    lines.push(
      `Where the bytes are, kind ${r.kind}, whole releases (\`news build --kind compressed\`, default part size for the real corpora):`,
      '',
      ...sizeTable([
        ...realSizes,
        { name: `synthetic month, ${gb(r.textBytes)} GB in ${r.parts} parts`, sizes: r.sizes },
      ]),
      '',
    );
  }
  if (servedChecks.length > 0)
    lines.push(
      `Served by \`news serve\` (memory mode), counts against a scan of the corpus: ${servedChecks.join('; ')}.`,
      '',
    );
  if (sorters.length > 0) {
    lines.push(
      `Suffix sorters on the four real corpora (45.6 MB, one text): ${sorters.map((s) => `${s.sorter} ${s.mbPerCpuS.toFixed(1)} MB per CPU-second (${s.mbPerWallS.toFixed(1)} MB/s wall)`).join('; ')}.`,
      '',
    );
  }
  for (const r of results) if (r.serving) lines.push(...servingLines(r.kind, r.serving));
  const scale = TARGET_BYTES / textBytes;
  // Nothing to extrapolate when the month measured is the target's size.
  const extrapolate = textBytes < 0.99 * TARGET_BYTES;
  for (const r of results.filter(() => extrapolate)) {
    lines.push(
      `*Extrapolated to 20 GB (${r.kind})*: about ${Math.ceil(TARGET_BYTES / (r.textBytes / r.parts))} parts of this size; build ≈ ${((r.build.summary.seconds * scale) / 60).toFixed(0)} min at the measured MB/s (sorting is O(n log n) per part, so per-part cost stays as measured); peak RSS stays ≈ ${gb(r.build.peakRssBytes)} GB (it depends on the part size and the parts sorted at once, not on the month); index ≈ ${gb(r.indexBytesPerTextByte * TARGET_BYTES)} GB on disk; whole-month count p50 ≈ ${((r.count.p50 / 1000) * scale).toFixed(1)} ms (one binary search per part, and parts grow with the month).`,
    );
  }
  if (rg && extrapolate)
    lines.push(
      '',
      `*Extrapolated*: ripgrep over 20 GB ≈ ${((rg.perQueryMs.p50 * scale) / 1000).toFixed(0)} s per query (linear in the text).`,
    );
  const section = lines.join('\n');
  process.stdout.write(`${section}\n`);
  writeBenchmarkSection(HEADING, section);
}

await main();
