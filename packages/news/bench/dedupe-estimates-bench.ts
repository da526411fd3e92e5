/**
 * `npm run bench:dedupe-estimates` (issue 28 item 1 with issue 27's estimates): what counting stories past the exact
 * bound adds to a sampled estimate or search. The four real corpora are built once (stories on); each query runs with
 * `dedupe: none` and `near` interleaved, BENCH_DEDUPE_RUNS rounds (5), CPU time of this process per call
 * (process.cpuUsage), medians and their ratio. search runs with its exact bound forced to 0 so it samples.
 * Replaces its section of BENCHMARKS.md.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildRelease, openRelease } from '../src/release/index.ts';
import { estimate, search } from '../src/search-v2/index.ts';
import { CORPORA, writeBenchmarkSection } from './bench-support.ts';
import { machine } from './index-bench-measure.ts';

const WORK = process.env['BENCH_DEDUPE_DIR'] ?? '/tmp/news-dedupe-estimates-bench';
const RUNS = Number(process.env['BENCH_DEDUPE_RUNS'] ?? '5');
const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const inputs = ['10kgnad-de', 'fundus-testdata-multi', 'livedoor-news-ja', 'reuters21578-en'].map((c) =>
  join(CORPORA, c, `${c}.jsonl.gz`),
);
const SAMPLED_SEARCH = { locatedOccurrences: 0, verifiedBytes: 256 * 1_048_576 };

interface Case {
  readonly call: string;
  readonly query: string;
  /** CPU ms of one call with the given dedupe; the answer's stories (near) for the table. */
  run(dedupe: 'none' | 'near'): Promise<number | undefined>;
}

const cpuMs = async (f: () => Promise<unknown>): Promise<number> => {
  const t = process.cpuUsage();
  await f();
  const d = process.cpuUsage(t);
  return (d.user + d.system) / 1000;
};

async function main(): Promise<void> {
  const started = new Date().toISOString();
  const loadBefore = loadAverage();
  const dir = join(WORK, 'release');
  rmSync(WORK, { recursive: true, force: true });
  await buildRelease({ inputs, out: dir, indexVersion: 'dedupe-estimates-bench' });
  const release = await openRelease(dir, { mode: 'disk' });
  const cases: Case[] = [
    ...(['said', 'の'] as const).map((query) => ({
      call: 'estimate (sample 4,000)',
      query,
      run: async (dedupe: 'none' | 'near') =>
        (await estimate(release, { index: 'news', query, dedupe })).matching_stories?.value,
    })),
    ...(['said NOT oil', 'Regierung OR Bundesregierung'] as const).map((query) => ({
      call: 'search (sample 2,000)',
      query,
      run: async (dedupe: 'none' | 'near') =>
        (
          await search(
            release,
            { index: 'news', query, dedupe, sample_size: 2000, page_size: 0 },
            undefined,
            SAMPLED_SEARCH,
          )
        ).stories,
    })),
  ];
  const rows: string[] = [];
  for (const c of cases) {
    const none: number[] = [];
    const near: number[] = [];
    await c.run('none');
    await c.run('near');
    for (let i = 0; i < RUNS; i++) {
      // Alternating order, so a load swing favours neither.
      const first = i % 2 === 0 ? 'none' : 'near';
      for (const d of [first, first === 'none' ? 'near' : 'none'] as const)
        (d === 'none' ? none : near).push(await cpuMs(() => c.run(d)));
    }
    const a = median(none);
    const b = median(near);
    rows.push(`| ${c.call} | \`${c.query}\` | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(2)} |`);
    process.stderr.write(`bench:dedupe-estimates: ${c.call} ${c.query} ${a.toFixed(0)} → ${b.toFixed(0)} CPU ms\n`);
  }
  release.close();
  rmSync(WORK, { recursive: true, force: true });
  const m = machine();
  const section = [
    '## Stories past the exact bound: cost of dedupe on sampled estimates (npm run bench:dedupe-estimates)',
    '',
    `Machine: ${m.nproc} × ${m.model}, ${m.ramGiB} GiB RAM, Node ${process.version}; started ${started}, 1-minute load ${loadBefore} before and ${loadAverage()} after`,
    '(other helpers shared the machine: CPU time of this process, medians of interleaved runs).',
    `The four real corpora (stories on). Each call ${RUNS} times with dedupe none and near, alternating; near adds the`,
    'sampled stories\' copies (each story\'s articles in the selection read and tested: search-v2/DESIGN.md, "Stories past the exact bound").',
    '',
    '| call | query | none, CPU ms | near, CPU ms | near / none |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
  writeBenchmarkSection('## Stories past the exact bound: cost of dedupe on sampled estimates', section);
}

await main();
