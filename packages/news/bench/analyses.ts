/**
 * `npm run bench:analyses`: ngrams and collocations (issue 28) on the real corpora, on both index kinds, against the
 * brute-force reference a user would otherwise write (a streaming scan of the JSONL with the same word segmenter,
 * test/support/analyses-brute.ts). Calls run in this process on a release opened in memory (no HTTP), each query
 * repeated; p50 and p90 in ms. Appends its section to BENCHMARKS.md.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { buildRelease, openRelease, type OpenRelease } from '../src/release/index.ts';
import {
  collocations,
  count,
  ngrams,
  type CollocationsRequestWire,
  type NgramsRequestWire,
} from '../src/search-v2/index.ts';
import { bruteContinuations, bruteWindows, scanJsonl } from '../test/support/analyses-brute.ts';
import { corpusFiles } from '../test/support/corpora.ts';
import { CORPORA, ensureCorporaRelease, pct, writeBenchmarkSection } from './bench-support.ts';
import { existsSync } from 'node:fs';

const VERSION = 'bench-analyses-1';
/** Releases of both kinds, built once: under BENCH_DIR when set (a private directory on a shared machine). */
const BENCH_DIR = process.env.BENCH_DIR ?? '/tmp';
const DIRS = {
  sa: process.env.BENCH_DIR === undefined ? '/tmp/bench-analyses-sa' : `${BENCH_DIR}/sa`,
  compressed: process.env.BENCH_DIR === undefined ? '/tmp/bench-analyses-compressed' : `${BENCH_DIR}/compressed`,
} as const;
const RUNS = Number(process.env.ANALYSES_RUNS ?? 15);

const NGRAMS: readonly NgramsRequestWire[] = [
  { index: 'news', query: 'oil prices', direction: 'right', words: 1 },
  { index: 'news', query: 'said it', direction: 'right', words: 2 },
  { index: 'news', query: 'prices', direction: 'left', words: 2 },
  { index: 'news', query: 'econom', direction: 'right', words: 1, complete: true },
  { index: 'news', query: '東京', direction: 'right', words: 1 },
  { index: 'news', query: 'Bundes', direction: 'right', words: 1, complete: true, languages: ['de'] },
  { index: 'news', query: 'the', direction: 'right', words: 1 },
];
const COLLOCATIONS: readonly CollocationsRequestWire[] = [
  { index: 'news', query: 'oil prices' },
  { index: 'news', query: 'Bundesregierung', languages: ['de'] },
  { index: 'news', query: '東京' },
  { index: 'news', query: 'trade' },
  { index: 'news', query: 'said', left: 3, right: 3 },
];

async function time(fn: () => Promise<unknown>, runs: number): Promise<{ p50: number; p90: number }> {
  await fn();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    await fn();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  return { p50: pct(t, 50), p90: pct(t, 90) };
}

const ms = (x: number) => (x < 10 ? x.toFixed(1) : x.toFixed(0));
const label = (r: { query: string }, extra: string) => `${JSON.stringify(r.query)} ${extra}`.trim();

async function occurrencesOf(release: OpenRelease, query: string): Promise<number> {
  return (await count(release, { index: 'news', query })).count;
}

async function bruteSeconds(run: (text: string) => void): Promise<number> {
  const s = performance.now();
  for await (const a of scanJsonl(corpusFiles())) run(a.text);
  return (performance.now() - s) / 1000;
}

async function main(): Promise<void> {
  await ensureCorporaRelease(DIRS.sa, VERSION);
  if (!existsSync(`${DIRS.compressed}/index-manifest.json`)) {
    await buildRelease({
      inputs: [CORPORA],
      out: DIRS.compressed,
      indexVersion: VERSION,
      force: true,
      kind: 'compressed',
    });
  }
  const rows: string[] = [];
  const releases = {
    sa: await openRelease(DIRS.sa, { mode: 'memory' }),
    compressed: await openRelease(DIRS.compressed, { mode: 'memory' }),
  };
  for (const r of NGRAMS) {
    const n = await occurrencesOf(releases.sa, r.query);
    const cells: string[] = [];
    let mode = '';
    for (const kind of ['sa', 'compressed'] as const) {
      const t = await time(() => ngrams(releases[kind], r), RUNS);
      mode = (await ngrams(releases[kind], r)).mode;
      cells.push(`${ms(t.p50)} / ${ms(t.p90)}`);
    }
    rows.push(
      `| ngrams ${label(r, `${r.direction} ${r.words}${r.complete === true ? ' complete' : ''}${r.languages ? ' de' : ''}`)} | ${n.toLocaleString('en')} | ${mode} | ${cells.join(' | ')} |`,
    );
    console.error(rows.at(-1));
  }
  for (const r of COLLOCATIONS) {
    const n = await occurrencesOf(releases.sa, r.query);
    const cells: string[] = [];
    let mode = '';
    for (const kind of ['sa', 'compressed'] as const) {
      const t = await time(() => collocations(releases[kind], r), Math.max(3, Math.floor(RUNS / 3)));
      mode = (await collocations(releases[kind], r)).mode;
      cells.push(`${ms(t.p50)} / ${ms(t.p90)}`);
    }
    rows.push(
      `| collocations ${label(r, `${r.left ?? 5}+${r.right ?? 5}${r.languages ? ' de' : ''}`)} | ${n.toLocaleString('en')} | ${mode} | ${cells.join(' | ')} |`,
    );
    console.error(rows.at(-1));
  }
  releases.sa.close();
  releases.compressed.close();
  const bruteNgrams = await bruteSeconds((t) => {
    bruteContinuations(t, 'oil prices', { direction: 'right', words: 1 }, new Map());
  });
  const bruteColl = await bruteSeconds((t) => {
    bruteWindows(t, 'oil prices', 5, 5, 'sensitive', new Map());
  });
  console.error({ bruteNgrams, bruteColl });
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const section = [
    '## Word analyses: ngrams and collocations (issue 28), real corpora',
    '',
    `Machine: ${cpus().length} × ${cpu}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} at the end (the machine is shared; above ~2 the times include waiting for a core). ` +
      `Data: the four real corpora (30,230 articles, 45.6 MB of text, 83 monthly shards), releases of both index kinds opened in memory. ` +
      `Calls in process (no HTTP), ${RUNS} runs each (collocations ${Math.max(3, Math.floor(RUNS / 3))}) after one warm-up; p50 / p90 in ms. ` +
      'Targets: ngrams p50 ≤ 100 ms, collocations (≤ 50,000 occurrences, exact) p50 ≤ 500 ms. `npm run bench:analyses`.',
    '',
    '| call | occurrences | mode | SA p50 / p90 | compressed p50 / p90 |',
    '|---|---:|---|---:|---:|',
    ...rows,
    '',
    `Brute force (streaming scan of the gzipped JSONL with src/words, one query): ngrams "oil prices" ${bruteNgrams.toFixed(1)} s, ` +
      `collocations "oil prices" ${bruteColl.toFixed(1)} s (scores would need a second pass for each collocate's frequency).`,
    '',
    "Where the time goes: per occurrence one `locate` (the compressed kind's sampled-SA locate dominates its column), " +
      'one `readText` and one segmentation of a small window. Collocate frequencies come from the word-count tables on ' +
      'whole shards (a binary search per shard and candidate); with a metadata filter (the German row) they are counted ' +
      'in the passing articles, read once per shard, or through the index where that is cheaper ' +
      '(search-v2/DESIGN.md, "Collocations"); the sampled function words of the German month still cost a `locate` per draw.',
  ].join('\n');
  writeBenchmarkSection('## Word analyses: ngrams and collocations (issue 28)', section);
  console.log(section);
}

await main();
