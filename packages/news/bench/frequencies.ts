/**
 * bench:frequencies (issue 28 items 4–5): what the word-count tables cost the build (real corpora; synthetic crawl
 * months) and what frequencies and keyness take against a brute-force streaming scan of the JSONL with the same
 * segmenter (words/segment.ts). Prints a markdown section for BENCHMARKS.md.
 *   npm run bench:frequencies -- [--synthetic-mb 100]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { discoverInputFiles, readArticles, writeSyntheticCorpus } from '../src/corpus/index.ts';
import { buildRelease, openRelease, type OpenRelease } from '../src/release/index.ts';
import { frequencies } from '../src/search-v2/frequencies/frequencies.ts';
import { keyness } from '../src/search-v2/frequencies/keyness.ts';
import { wordList } from '../src/words/index.ts';
import { CORPORA } from './bench-support.ts';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const syntheticMb = arg('synthetic-mb', 100);
const root = mkdtempSync(join(tmpdir(), 'bench-frequencies-'));
const lines: string[] = [];
const say = (l: string) => {
  lines.push(l);
  console.error(l);
};

/** Builds `inputs` with and without tables; the tables' share of the text and the build time they add. */
async function buildCost(name: string, inputs: string[]): Promise<string> {
  const seconds: Record<string, number> = {};
  for (const wordCounts of [false, true]) {
    const out = join(root, `${name}-${wordCounts ? 'with' : 'without'}`);
    const t = performance.now();
    await buildRelease({ inputs, out, indexVersion: name, force: true, wordCounts });
    seconds[String(wordCounts)] = (performance.now() - t) / 1000;
  }
  const dir = join(root, `${name}-with`);
  const release = await openRelease(dir, { mode: 'disk' });
  const shards = [...release.indexes.values()].flatMap((ix) => ix.shards);
  const tableBytes = shards.reduce((n, s) => n + statSync(s.wordCounts?.path ?? '').size, 0);
  const textBytes = shards.reduce((n, s) => n + s.reader.stats.textBytes, 0);
  release.close();
  const without = seconds.false ?? 0;
  const withTables = seconds.true ?? 0;
  return (
    `| ${name} | ${(textBytes / 1e6).toFixed(1)} MB, ${shards.length} shards | ${without.toFixed(1)} s | ${withTables.toFixed(1)} s | ` +
    `+${(((withTables - without) / without) * 100).toFixed(0)}% | ${(tableBytes / 1e3).toFixed(0)} kB | ${(tableBytes / textBytes).toFixed(4)} |`
  );
}

/** p50 of `runs` calls after the first (cold: tables read and decoded) one, in ms. */
async function timed(run: () => Promise<unknown>, runs = 15): Promise<{ cold: number; p50: number }> {
  let t = performance.now();
  await run();
  const cold = performance.now() - t;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { cold, p50: times[Math.floor(times.length / 2)] ?? NaN };
}

/** The user's alternative: stream the JSONL, keep the periods, segment and count, sort. */
async function bruteForce(inputs: string[], periods: readonly string[]): Promise<number> {
  const t = performance.now();
  const counts = periods.map(() => new Map<string, number>());
  for await (const r of readArticles(
    await discoverInputFiles(inputs),
    { skipBad: false },
    { records: 0, skipped: 0 },
  )) {
    const k = periods.indexOf(`${r.crawl.year}-${String(r.crawl.month).padStart(2, '0')}`);
    const m = counts[k];
    if (m === undefined) continue;
    for (const w of wordList(r.text)) m.set(w, (m.get(w) ?? 0) + 1);
  }
  for (const m of counts) [...m].sort((a, b) => b[1] - a[1]).slice(0, 100);
  return performance.now() - t;
}

async function queries(name: string, release: OpenRelease, inputs: string[], a: string, b: string): Promise<string[]> {
  const f = await timed(() => frequencies(release, { index: 'news', periods: [a], limit: 100 }));
  const k = await timed(() =>
    keyness(release, { index: 'news', a: { periods: [a] }, b: { periods: [b] }, limit: 100 }),
  );
  const bf = await bruteForce(inputs, [a]);
  const bk = await bruteForce(inputs, [a, b]);
  return [
    `| ${name} | frequencies of ${a} (top 100) | ${f.p50.toFixed(2)} ms | ${f.cold.toFixed(0)} ms | ${(bf / 1000).toFixed(1)} s | ${(bf / f.p50).toFixed(0)}× | ≤ 50 ms |`,
    `| ${name} | keyness ${a} vs ${b} (100 each way) | ${k.p50.toFixed(2)} ms | ${k.cold.toFixed(0)} ms | ${(bk / 1000).toFixed(1)} s | ${(bk / k.p50).toFixed(0)}× | ≤ 200 ms |`,
  ];
}

try {
  say(
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB; load average at start ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const real = [CORPORA];
  const synth = [3, 4].map((month) => join(root, `synthetic-${month}.jsonl.gz`));
  for (const [i, month] of [3, 4].entries()) {
    await writeSyntheticCorpus(synth[i] ?? '', {
      seed: month,
      textBytes: (syntheticMb * 1e6) / 2,
      firstYear: 2021,
      years: 1,
      month,
    });
  }
  say('');
  say('| corpus | text | build without tables | with tables | added | tables | bytes per text byte |');
  say('|---|---|---|---|---|---|---|');
  say(await buildCost('real-corpora', real));
  say(await buildCost(`synthetic-${syntheticMb}MB`, synth));
  say('');
  say('| corpus | call | p50 (warm) | first call (cold) | brute-force scan | speed-up | target |');
  say('|---|---|---|---|---|---|---|');
  const r = await openRelease(join(root, 'real-corpora-with'), { mode: 'disk' });
  for (const l of await queries('real corpora', r, real, '1987-03', '1987-04')) say(l);
  r.close();
  const s = await openRelease(join(root, `synthetic-${syntheticMb}MB-with`), { mode: 'disk' });
  for (const l of await queries(`synthetic ${syntheticMb} MB`, s, synth, '2021-03', '2021-04')) say(l);
  s.close();
  say(
    `\nLoad average at end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(lines.join('\n'));
} finally {
  rmSync(root, { recursive: true, force: true });
}
