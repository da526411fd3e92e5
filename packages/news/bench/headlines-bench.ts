/**
 * `npm run bench:headlines` (issue 27 item 4): what the headline index costs on the real corpora: its size per
 * headline byte and its share of the release, the build time with it against a build without it, and `title:`
 * latency in process.
 *   --kinds sa,compressed   index kinds to build (default sa)
 *   --runs N                builds per kind and side, alternating (default 2; the median is reported)
 *   --baseline-bin PATH     bin/news.js of a checkout without headline indexing (e.g. the commit before it):
 *                           built the same way, for the build time delta
 *   --write                 replace this benchmark's section of BENCHMARKS.md
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openRelease, type IndexManifest, type OpenRelease } from '../src/release/index.ts';
import { search } from '../src/search-v2/query/index.ts';
import { SHARD_KINDS, type ShardKind } from '../src/shard/index.ts';
import { CORPORA, NEWS_BIN, pct, writeBenchmarkSection } from './bench-support.ts';

const { values } = parseArgs({
  options: {
    kinds: { type: 'string', default: 'sa' },
    runs: { type: 'string', default: '2' },
    'baseline-bin': { type: 'string' },
    write: { type: 'boolean', default: false },
  },
});
const kinds = (values.kinds ?? 'sa').split(',').map((k) => {
  if (!(SHARD_KINDS as readonly string[]).includes(k))
    throw new Error(`--kinds: ${k} is not one of ${SHARD_KINDS.join(', ')}`);
  return k as ShardKind;
});
const runs = Number(values.runs);
const root = mkdtempSync(join(tmpdir(), 'headlines-bench-'));
const QUERIES = [
  'title:OIL',
  'title:"OIL PRICES"',
  'title:BANK AND rate',
  'title:話題 OR title:Trump',
  'title:OIL NOT oil',
];

function treeBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce(
    (n, d) => n + (d.isDirectory() ? treeBytes(join(dir, d.name)) : statSync(join(dir, d.name)).size),
    0,
  );
}

/** Wall seconds of one `news build` of every corpus into `out`. */
function build(bin: string, kind: ShardKind, out: string): number {
  rmSync(out, { recursive: true, force: true });
  const t0 = performance.now();
  const r = spawnSync(
    process.execPath,
    [bin, 'build', '--input', CORPORA, '--out', out, '--index-version', 'headlines-bench', '--kind', kind],
    { encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`news build (${bin}) failed: ${r.stderr}`);
  return (performance.now() - t0) / 1000;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const mib = (b: number) => (b / 1_048_576).toFixed(2);

/** p50 / p99 of wall ms and p50 CPU ms, of the sorted samples. */
const summary = (wall: number[], cpu: number[]): string => {
  wall.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  return `${pct(wall, 50).toFixed(2)} / ${pct(wall, 99).toFixed(2)}; CPU ${pct(cpu, 50).toFixed(2)}`;
};

/**
 * `title:` latency with the headline indexes held in memory against read from disk (openRelease's `headlineMode`;
 * shards in memory both times), in one process, the two releases' queries interleaved so load hits both alike.
 */
async function titleLatencyAB(dir: string): Promise<{ memory: string; disk: string }> {
  const modes = ['memory', 'disk'] as const;
  const opened = await Promise.all(modes.map((headlineMode) => openRelease(dir, { mode: 'memory', headlineMode })));
  const wall: number[][] = [[], []];
  const cpu: number[][] = [[], []];
  for (let i = 0; i < 25; i++) {
    for (const query of QUERIES) {
      const answers: string[] = [];
      for (let m = 0; m < modes.length; m++) {
        const c0 = process.cpuUsage();
        const t0 = performance.now();
        const r = await search(opened[m] as OpenRelease, { index: 'news', query });
        const ms = performance.now() - t0;
        const c = process.cpuUsage(c0);
        answers.push(JSON.stringify([r.articles, r.by_shard]));
        // The first 5 rounds warm up (JIT, page cache) and are not counted.
        if (i >= 5) {
          wall[m]?.push(ms);
          cpu[m]?.push((c.user + c.system) / 1000);
        }
      }
      if (answers[0] !== answers[1]) throw new Error(`${query}: headlines from disk answer otherwise than in memory`);
    }
  }
  for (const r of opened) r.close();
  return { memory: summary(wall[0] ?? [], cpu[0] ?? []), disk: summary(wall[1] ?? [], cpu[1] ?? []) };
}

const rows: string[] = [];
const load0 = loadavg()[0] ?? 0;
for (const kind of kinds) {
  const ours: number[] = [];
  const base: number[] = [];
  const out = join(root, `${kind}-ours`);
  for (let i = 0; i < runs; i++) {
    ours.push(build(NEWS_BIN, kind, out));
    if (values['baseline-bin']) base.push(build(values['baseline-bin'], kind, join(root, `${kind}-base`)));
  }
  const m = JSON.parse(readFileSync(join(out, 'index-manifest.json'), 'utf8')) as IndexManifest;
  const shards = m.indexes[0]?.shards ?? [];
  const titleText = shards.reduce((n, s) => n + (s.titles?.text_bytes ?? 0), 0);
  const titleIndex = shards.reduce((n, s) => n + (s.titles?.files ?? []).reduce((k, f) => k + f.bytes, 0), 0);
  const bodyText = shards.reduce((n, s) => n + s.text_bytes, 0);
  const release = treeBytes(out);
  const latency = await titleLatencyAB(out);
  const delta =
    base.length > 0
      ? `${median(base).toFixed(1)} s → ${median(ours).toFixed(1)} s (${(((median(ours) - median(base)) / median(base)) * 100).toFixed(1)}%)`
      : `${median(ours).toFixed(1)} s (no baseline)`;
  rows.push(
    `| ${kind} | ${mib(titleText)} MiB (${((titleText / bodyText) * 100).toFixed(1)}% of article text) | ${mib(titleIndex)} MiB | ${(titleIndex / titleText).toFixed(2)} | ${((titleIndex / release) * 100).toFixed(1)}% of ${mib(release)} MiB | ${delta} | ${latency.memory} | ${latency.disk} |`,
  );
}
rmSync(root, { recursive: true, force: true });

const section = `## Headline index (issue 27 item 4, \`npm run bench:headlines\`)
Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, shared with other jobs (load average ${load0.toFixed(1)} → ${(loadavg()[0] ?? 0).toFixed(1)}).
Data: the four real corpora (${CORPORA}), 30,230 articles; \`news build --input CORPORA\` per kind, median of ${runs} alternating runs;
headline text counts one separator byte per article. \`title:\` queries in process (search(), shards in memory mode, 20 timed rounds after 5 of warm-up), with the headline indexes held in memory and read from disk (openRelease's \`headlineMode\`; disk is the default) interleaved in one process, answers checked equal: ${QUERIES.map((q) => `\`${q}\``).join(', ')}.

| kind | headline text | headline index | bytes per headline byte | share of the release | build time without → with headlines | title: ms p50 / p99; CPU p50, headlines in memory | the same, headlines from disk (default) |
|---|---|---|---|---|---|---|---|
${rows.join('\n')}
`;
console.log(section);
if (values.write) writeBenchmarkSection('## Headline index (issue 27 item 4', section);
