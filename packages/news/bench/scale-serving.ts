/**
 * bench:scale, the serving half: a built month opened in memory, measured per part (count, locate, get_doc
 * window, 1,000-rank page) and for the whole month (count over every part), then over HTTP (gateway → worker,
 * distinct count queries, so the worker's result cache misses). Latencies in microseconds.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { openShard, type ShardReader } from '../src/shard/index.ts';
import { openRelease, type IndexManifest, type ReleaseIndex } from '../src/release/index.ts';
import { autocannon, collectGarbage, spawnListening, ADMISSION_OPEN_ENV } from './bench-support.ts';
import { percentiles, type Percentiles } from './index-bench-measure.ts';
import { measureReader, mixedQueries, type Latency } from './reader-latency.ts';

const now = (): number => Number(process.hrtime.bigint()) / 1000;

export interface HttpCounts {
  connections: number;
  seconds: number;
  distinctQueries: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface Serving {
  openSeconds: number;
  /** RSS growth of this process from before the open to after the measurements (the month in memory). */
  rssGrowthBytes: number;
  parts: { id: string; textBytes: number; lat: Latency }[];
  month: Percentiles;
  http?: HttpCounts;
}

/** count over every part of the month per query, in memory (warm-up round first). */
function countMonth(readers: readonly ShardReader[], queries: readonly Buffer[]): Percentiles {
  const samples: number[] = [];
  for (let round = 0; round < 2; round++) {
    for (const q of queries) {
      const t = now();
      let total = 0;
      for (const r of readers) total += r.count(q);
      if (round === 1) samples.push(now() - t);
      if (total < 0) throw new Error('unreachable');
    }
  }
  return percentiles(samples);
}

/** Distinct count queries over HTTP for `seconds` with 16 connections, through the gateway to one worker. */
async function httpCounts(releaseDir: string, queries: readonly string[], seconds: number): Promise<HttpCounts> {
  const manifest = JSON.parse(readFileSync(join(releaseDir, 'index-manifest.json'), 'utf8')) as IndexManifest;
  const version = manifest.index_version;
  const worker = await spawnListening([
    'worker',
    '--release',
    releaseDir,
    '--index-version',
    version,
    '--mode',
    'memory',
    '--port',
    '0',
  ]);
  try {
    const gateway = await spawnListening(['gateway', '--port', '0'], {
      GATEWAY_INDEX_VERSION: version,
      GATEWAY_WORKER_URL: worker.url,
      GATEWAY_ENVIRONMENT: 'development',
      LOG_LEVEL: 'warn',
      ...ADMISSION_OPEN_ENV,
    });
    try {
      const bodies = queries.map((query) => JSON.stringify({ query, index: 'news' }));
      let i = 0;
      const connections = 16;
      const r = await autocannon({
        url: gateway.url,
        connections,
        duration: seconds,
        pipelining: 1,
        requests: [
          {
            method: 'POST',
            path: '/api/v1/count',
            headers: { 'content-type': 'application/json' },
            setupRequest: (req) => ({ ...req, body: bodies[i++ % bodies.length] as string }),
          },
        ],
      });
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`/api/v1/count: ${r.non2xx} non-2xx, ${r.errors} errors`);
      return {
        connections,
        seconds,
        distinctQueries: bodies.length,
        perSecond: r.requests.average,
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
      };
    } finally {
      gateway.child.kill();
    }
  } finally {
    worker.child.kill();
  }
}

/** Per part and whole-month latency of readers already open in memory. */
function measureParts(
  parts: readonly { id: string; reader: ShardReader }[],
  openSeconds: number,
  rssBefore: number,
  log: (msg: string) => void,
): Serving {
  const readers = parts.map((p) => p.reader);
  const queries = mixedQueries(readers);
  log(`in memory: ${parts.length} parts, per part and whole month`);
  const measured = parts.map((p) => ({
    id: p.id,
    textBytes: p.reader.stats.textBytes,
    lat: measureReader({ reader: p.reader, openSeconds, rssMB: 0 }, queries),
  }));
  const month = countMonth(readers, queries);
  return { openSeconds, rssGrowthBytes: process.memoryUsage().rss - rssBefore, parts: measured, month };
}

/** Opens the release in memory and measures it; `httpSeconds` 0 skips the HTTP part. */
export async function measureServing(
  releaseDir: string,
  httpSeconds: number,
  log: (msg: string) => void,
): Promise<Serving> {
  await collectGarbage(); // whatever the caller closed before
  const { serving, distinct } = await measureInMemory(releaseDir, httpSeconds > 0, log);
  if (httpSeconds > 0) {
    // The worker loads its own copy of the month: the in-memory one (unreachable now) must be freed first, or two
    // copies of a 20 GB month (≈ 17 GB each) exceed the machine.
    await collectGarbage();
    log(`over HTTP for ${httpSeconds} s (this process's RSS now ${(process.memoryUsage().rss / 1e9).toFixed(2)} GB)`);
    serving.http = await httpCounts(releaseDir, distinct, httpSeconds);
  }
  return serving;
}

/** Opens the release in memory, measures it, draws the HTTP queries, and closes it. */
async function measureInMemory(
  releaseDir: string,
  withHttp: boolean,
  log: (msg: string) => void,
): Promise<{ serving: Serving; distinct: string[] }> {
  const rss = process.memoryUsage().rss;
  const t = performance.now();
  const release = await openRelease(releaseDir, { mode: 'memory', verify: 'sizes' });
  try {
    const index = release.indexes.get('news') as ReleaseIndex;
    const readers = index.shards.map((s) => ({ id: s.shardId, reader: s.reader }));
    const serving = measureParts(readers, (performance.now() - t) / 1000, rss, log);
    // More distinct queries than the worker's 10,000-entry result cache holds.
    const distinct = withHttp
      ? mixedQueries(
          readers.map((r) => r.reader),
          20_000,
        ).map((q) => q.toString('utf8'))
      : [];
    return { serving, distinct };
  } finally {
    release.close();
  }
}

/**
 * Finished part directories of a build still running (or stopped): each shard opened in memory and measured as
 * measureServing does, without HTTP (the worker needs a whole release). Also their files' bytes per text byte.
 */
export function measurePartDirs(
  dirs: readonly string[],
  log: (msg: string) => void,
): Serving & { indexBytesPerTextByte: number } {
  const rss = process.memoryUsage().rss;
  const t = performance.now();
  const parts = dirs.map((dir) => ({ id: basename(dir), reader: openShard(dir, 'memory') }));
  try {
    const serving = measureParts(parts, (performance.now() - t) / 1000, rss, log);
    const fileBytes = dirs.reduce(
      (n, dir) => n + readdirSync(dir).reduce((m, f) => m + statSync(join(dir, f)).size, 0),
      0,
    );
    return { ...serving, indexBytesPerTextByte: fileBytes / serving.parts.reduce((n, p) => n + p.textBytes, 0) };
  } finally {
    for (const p of parts) p.reader.close();
  }
}

const us = (v: number): string => (v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${v.toFixed(1)} µs`);
const pq = (p: Percentiles): string => `${us(p.p50)} / ${us(p.p99)}`;

/** The serving table of a kind, next to issue 10's targets. */
export function servingLines(kind: string, s: Serving): string[] {
  const textBytes = s.parts.reduce((n, p) => n + p.textBytes, 0);
  const lines = [
    `Kind ${kind} served **in memory** (this process; queries: 1,000 mixed from the month's articles, 2,000 random ranks per part; "page" = 1,000 consecutive ranks of a frequent query located with their articles' lengths, the shard-side work of a v2 documents page). Open ${s.openSeconds.toFixed(1)} s; RSS growth ${gb(s.rssGrowthBytes)} GB (${(s.rssGrowthBytes / textBytes).toFixed(2)} bytes per text byte; target ≤ 18 GB for 20 GB).`,
    '',
    'Wall p50 / p99 per call, then [mean CPU per call]: on this shared machine the wall figures include waiting for a core; the CPU figure is the work itself.',
    '',
    '| part | text | count (≤ 100 µs p50, ≤ 1 ms p99) | locate (≤ 20 µs p50) | get_doc 1,000 B context (≤ 300 µs p50) | page of 1,000 ranks (≤ 50 ms p50) |',
    '|---|---|---|---|---|---|',
    ...s.parts.map(
      (p) =>
        `| ${p.id} | ${gb(p.textBytes)} GB | ${pq(p.lat.count)} [${us(p.lat.cpu.count)}] | ${pq(p.lat.locate)} [${us(p.lat.cpu.locate)}] | ${pq(p.lat.window)} [${us(p.lat.cpu.window)}] | ${pq(p.lat.page)} [${us(p.lat.cpu.page)}] |`,
    ),
    `| **whole month** (every part) | ${gb(textBytes)} GB | ${pq(s.month)} (target ≤ 2 ms p50) | | | |`,
    '',
  ];
  if (s.http) {
    lines.push(
      `Over HTTP (gateway → one worker in memory mode, ${s.http.connections} connections, ${s.http.seconds} s, ${s.http.distinctQueries.toLocaleString('en')} distinct count queries rotated, more than the worker's result cache holds): **${s.http.perSecond.toFixed(0)} counts/s** (target ≥ 2,000), p50 ${s.http.p50Ms} ms, p99 ${s.http.p99Ms} ms.`,
      '',
    );
  }
  return lines;
}

const gb = (n: number): string => (n / 1e9).toFixed(2);
