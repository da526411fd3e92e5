/**
 * `npm run bench:assemble`: how long `news release assemble` takes on the largest release we have (the four real
 * corpora together, 45.6 MB of text), built as three parts of crawl months, once with the default part size and
 * once with 400 kB parts (hundreds of shards, so thousands of files). Measures the hard-link path (parts on the
 * release's file system), the copy fallback (parts on /dev/shm, another file system) and `cp -r` of the same parts
 * as the cost of copying the data, in one run, and replaces its section of BENCHMARKS.md.
 * A synthetic corpus several times larger (BENCH_ASSEMBLE_SYNTHETIC_BYTES, default 200 MB of text, 6 crawl years in
 * 3 parts; 0 skips it) shows that the linked assembly does not grow with the data.
 * Environment: BENCH_ASSEMBLE_DIR (/tmp/news-assemble), BENCH_ASSEMBLE_RUNS (5), BENCH_ASSEMBLE_SYNTHETIC_BYTES.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { assembleRelease, buildRelease } from '../src/release/index.ts';
import { defaultSyntheticCorpusOptions, writeSyntheticCorpus } from '../src/corpus/index.ts';
import { CORPORA, writeBenchmarkSection } from './bench-support.ts';
import { machine } from './index-bench-measure.ts';

const WORK = process.env['BENCH_ASSEMBLE_DIR'] ?? '/tmp/news-assemble';
const RUNS = Number(process.env['BENCH_ASSEMBLE_RUNS'] ?? '5');
const SYNTHETIC_BYTES = Number(process.env['BENCH_ASSEMBLE_SYNTHETIC_BYTES'] ?? '200e6');
/** Three parts; 1987 and 2011 are split by month across parts, so two stores come from several parts. */
const CORPORA_SPLITS = ['1987-01..1987-04,2016', '1987-05..2011-06', '2011-07..2015-12,2017..2026'];
/** The synthetic generator's default years are 2019–2024. */
const SYNTHETIC_SPLITS = ['2019..2020', '2021..2022', '2023..2024'];
const SHM = '/dev/shm';
const log = (msg: string): void => void process.stderr.write(`bench:assemble: ${msg}\n`);
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

const inputs = ['10kgnad-de', 'fundus-testdata-multi', 'livedoor-news-ja', 'reuters21578-en'].map((c) =>
  join(CORPORA, c, `${c}.jsonl.gz`),
);

interface Config {
  readonly label: string;
  readonly inputs: readonly string[];
  readonly splits: readonly string[];
  readonly partBytes?: number;
}

async function buildParts(dir: string, c: Config): Promise<string[]> {
  const parts = c.splits.map((_, i) => join(dir, `part-${i}`));
  for (const [i, spec] of c.splits.entries()) {
    await buildRelease({
      inputs: c.inputs,
      out: parts[i] as string,
      indexVersion: 'bench-assemble',
      partBytes: c.partBytes,
      onlyPeriods: spec,
    });
  }
  return parts;
}

/** Median seconds of `RUNS` assemblies of `parts` into fresh folders under `outDir`, and what one of them reported. */
async function timeAssemble(
  parts: string[],
  outDir: string,
): Promise<{ seconds: number; files: number; shards: number; bytes: number; copiedBytes: number }> {
  const times: number[] = [];
  let last = { files: 0, shards: 0, bytes: 0, copiedBytes: 0 };
  for (let r = 0; r < RUNS; r++) {
    const out = join(outDir, `release-${r}`);
    const started = process.hrtime.bigint();
    const s = await assembleRelease({ parts, out, indexVersion: 'bench-assemble' });
    times.push(Number(process.hrtime.bigint() - started) / 1e9);
    last = { files: s.files, shards: s.shards, bytes: s.bytes, copiedBytes: s.copiedBytes };
    rmSync(out, { recursive: true, force: true });
  }
  return { seconds: median(times), ...last };
}

function timeCopy(parts: string[], to: string): number {
  const started = process.hrtime.bigint();
  const cp = spawnSync('cp', ['-r', ...parts, to]);
  if (cp.status !== 0) throw new Error(`cp failed: ${cp.stderr.toString()}`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const dirBytes = (dir: string): number => Number(spawnSync('du', ['-sb', dir]).stdout.toString().split('\t')[0]);

const m = machine();
const loadBefore = loadAverage();
rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
const otherFs = existsSync(SHM) && statSync(SHM).dev !== statSync(WORK).dev;
const rows: string[] = [];
try {
  const configs: Config[] = [
    { label: 'real corpora, default part size', inputs, splits: CORPORA_SPLITS },
    { label: 'real corpora, 400 kB parts', inputs, splits: CORPORA_SPLITS, partBytes: 400_000 },
  ];
  if (SYNTHETIC_BYTES > 0) {
    const corpus = join(WORK, 'synthetic.jsonl.gz');
    await writeSyntheticCorpus(corpus, { ...defaultSyntheticCorpusOptions, textBytes: SYNTHETIC_BYTES });
    configs.push({
      label: `synthetic ${(SYNTHETIC_BYTES / 1e6).toFixed(0)} MB, default part size`,
      inputs: [corpus],
      splits: SYNTHETIC_SPLITS,
    });
  }
  for (const c of configs) {
    const label = c.label;
    log(`building ${c.splits.length} parts (${label})`);
    const dir = join(WORK, label.replace(/\W+/g, '-'));
    const parts = await buildParts(dir, c);
    const bytes = parts.reduce((n, p) => n + dirBytes(p), 0);
    const linked = await timeAssemble(parts, dir);
    const copyTo = join(dir, 'cp');
    mkdirSync(copyTo);
    const cpSeconds = timeCopy(parts, copyTo);
    let away = 'n/a (no second file system)';
    if (otherFs) {
      const shmDir = join(SHM, `news-assemble-${process.pid}`);
      mkdirSync(shmDir);
      try {
        timeCopy(parts, shmDir);
        const copied = await timeAssemble(
          c.splits.map((_, i) => join(shmDir, `part-${i}`)),
          dir,
        );
        away = `${copied.seconds.toFixed(3)} s (${(copied.copiedBytes / 1e6).toFixed(1)} MB copied)`;
      } finally {
        rmSync(shmDir, { recursive: true, force: true });
      }
    }
    const verifyRate = `${(linked.bytes / 1e6 / linked.seconds).toFixed(0)} MB/s`;
    rows.push(
      `| ${label} | ${linked.shards} | ${linked.files} | ${(bytes / 1e6).toFixed(1)} MB | **${linked.seconds.toFixed(3)} s** | ${verifyRate} | ${away} | ${cpSeconds.toFixed(3)} s | ${(cpSeconds / linked.seconds).toFixed(1)}× |`,
    );
    log(rows.at(-1) as string);
  }
} finally {
  rmSync(WORK, { recursive: true, force: true });
}

writeBenchmarkSection(
  '## Distributed builds: news release assemble (npm run bench:assemble)',
  `## Distributed builds: news release assemble (npm run bench:assemble)

Measured ${new Date().toISOString().slice(0, 16)} UTC on ${m.nproc} cores (${m.model}), ${m.ramGiB} GiB RAM, **shared with other jobs**: load average ${loadBefore} at the start, ${loadAverage()} at the end.
Data: the four real corpora together (45.6 MB of text, the largest real release here), built as ${CORPORA_SPLITS.length} parts of crawl months (\`--only-periods ${CORPORA_SPLITS.join(' | ')}\`), and a synthetic corpus (\`news demo-corpus\`) in ${SYNTHETIC_SPLITS.length} parts (\`${SYNTHETIC_SPLITS.join(' | ')}\`); \`--kind sa\`.
Time of \`assembleRelease\` in-process (checks, sha256 of every placed file, links, manifests, rename; median of ${RUNS}); the CLI adds its start-up (~1–3 s under load).
"verified" is the bytes of the placed files over the whole assembly time (every file is read and hashed once; the parts
were just built, so they are mostly in the page cache: from a cold disk the disk's read rate bounds it too).

| input, parts built with | shards | files placed | part data | assemble, hard links | verified | assemble, parts on /dev/shm (copied) | \`cp -r\` of the parts | cp / assemble |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Hard-linked assembly costs a directory entry per file plus one read and sha256 of every file (issue 23: a part is
not trusted), so it grows with the data at the "verified" rate, on one core; the cp column is what copying the same
bytes costs on this disk. Before the checksums (2026-11-24) the linked assembly took 0.065-0.296 s whatever the data.
`,
);
