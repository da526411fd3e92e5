/**
 * `npm run bench:cluster` (issue 14): one gateway over three workers, each serving a third of the release's shards,
 * against one gateway over one worker serving them all, in one run on the same machine. Measures distinct-count
 * throughput and p99, get_doc throughput, v2 documents paging, and the CPU each process spends per request.
 * Writes the section "## News scale-out (npm run bench:cluster)" of BENCHMARKS.md.
 * Environment: BENCH_SECONDS per row (6), BENCH_ROUNDS of the count row (5), BENCH_BASELINE_NEWS_BIN (another checkout's
 * bin/news.js, measured interleaved), BENCH_ONLY=count (the count rounds alone, printed; BENCHMARKS.md untouched).
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import {
  autocannon,
  BENCHMARKS_FILE,
  CORPORA,
  cpuMicros,
  distinctQueries,
  spawnListening,
  writeBenchmarkSection,
  ADMISSION_OPEN_ENV,
} from './bench-support.ts';
import { clusterSection, type Measured } from './cluster-report.ts';
import { buildRelease, INDEX_MANIFEST_FILE, openRelease } from '../src/release/index.ts';

const RELEASE = '/tmp/news-cluster-bench/release';
const VERSION = 'cluster-bench-1';
const SECTION = '## News scale-out (npm run bench:cluster)';
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 6);
/** Rounds of the count row (and of the baseline comparison): one round is noise on a shared machine. */
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
/** BENCH_ONLY=count: the count rounds alone, printed, BENCHMARKS.md untouched (for quick A/B runs). */
const ONLY_COUNT = process.env['BENCH_ONLY'] === 'count';

type Proc = Awaited<ReturnType<typeof spawnListening>>;

async function post(url: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const cursor = new Map<string, number>();

/** The round whose gateway CPU ratio (3 workers / 1) is the median of the rounds. */
function medianRound(rounds: readonly [Measured, Measured][]): [Measured, Measured] {
  const sorted = [...rounds].sort((a, b) => a[1].gatewayUs / a[0].gatewayUs - b[1].gatewayUs / b[0].gatewayUs);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** autocannon at 16 connections, with the CPU (user + system) the gateway and its workers spent per request. */
async function measure(
  gateway: Proc,
  workers: readonly Proc[],
  path: string,
  bodies: readonly string[],
  seconds = SECONDS,
): Promise<Measured> {
  const cpu = () => ({ g: cpuMicros(gateway.child.pid), w: workers.reduce((n, w) => n + cpuMicros(w.child.pid), 0) });
  // Each gateway continues its own rotation across rows, so a query comes back only after 40,000 others (a cache miss).
  const key = `${gateway.url}${path}${bodies.length}`;
  let i = cursor.get(key) ?? 0;
  const before = cpu();
  const r = await autocannon({
    url: gateway.url,
    connections: 16,
    duration: seconds,
    pipelining: 1,
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: bodies[i++ % bodies.length]! }),
      },
    ],
  });
  const after = cpu();
  cursor.set(key, i);
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  const n = Math.max(r.requests.total, 1);
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    gatewayUs: (after.g - before.g) / n,
    workersUs: (after.w - before.w) / n,
  };
}

/** One worker over the whole release and its gateway; three workers over a third each and their gateway. */
async function startSetup(common: readonly string[], thirds: readonly string[][], bin?: string) {
  const whole = await spawnListening(['worker', ...common], {}, bin);
  const parts = await Promise.all(
    thirds.map((t) => spawnListening(['worker', ...common, '--shards', t.join(',')], {}, bin)),
  );
  const env = {
    GATEWAY_INDEX_VERSION: VERSION,
    GATEWAY_ENVIRONMENT: 'development',
    LOG_LEVEL: 'info',
    ...ADMISSION_OPEN_ENV,
  };
  const single = await spawnListening(['gateway', '--port', '0'], { ...env, GATEWAY_WORKER_URL: whole.url }, bin);
  const cluster = await spawnListening(
    ['gateway', '--port', '0'],
    { ...env, GATEWAY_WORKER_URL: parts.map((p) => p.url).join(',') },
    bin,
  );
  return { whole, parts, single, cluster, all: [whole, ...parts, single, cluster] };
}

async function healthy(gateway: Proc): Promise<void> {
  for (let t = 0; (await fetch(`${gateway.url}/api/v2/health`)).status !== 200; t++) {
    if (t > 100) throw new Error('the cluster gateway never became healthy');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main(): Promise<void> {
  if (!existsSync(CORPORA)) throw new Error(`the benchmark needs the shared corpora in ${CORPORA}`);
  if (!existsSync(`${RELEASE}/${INDEX_MANIFEST_FILE}`)) {
    console.error(`building the release from ${CORPORA} into ${RELEASE} (once) …`);
    await buildRelease({ inputs: [CORPORA], out: RELEASE, indexVersion: VERSION, force: true });
  }
  const open = await openRelease(RELEASE, { mode: 'disk', verify: 'sizes' });
  const ids = open.indexes.get('news')!.shards.map((s) => s.shardId as string);
  open.close();
  // Three contiguous thirds of the shard list, one per worker.
  const thirds = [0, 1, 2].map((k) =>
    ids.slice(Math.floor((k * ids.length) / 3), Math.floor(((k + 1) * ids.length) / 3)),
  );
  const common = ['--release', RELEASE, '--index-version', VERSION, '--port', '0', '--verify', 'sizes'];
  const baselineBin = process.env['BENCH_BASELINE_NEWS_BIN'];
  const mine = await startSetup(common, thirds);
  const base = baselineBin === undefined ? null : await startSetup(common, thirds, baselineBin);
  const { whole, parts, single, cluster } = mine;
  const all = [...mine.all, ...(base?.all ?? [])];
  try {
    for (const g of [cluster, ...(base === null ? [] : [base.cluster])]) await healthy(g);
    // Distinct queries: 40,000 > the workers' 10,000-entry caches, so every count in rotation is a cache miss.
    const countBodies = distinctQueries(40_000).map((query) => JSON.stringify({ query, index: 'news' }));
    const words = ['the', 'oil prices', 'Bundesregierung', 'und', '東京', 'market', 'Wien', '株式', 'dollar'];
    const getDocBodies: string[] = [];
    const pageBodies: string[] = [];
    for (const query of words) {
      const v1 = (await post(single.url, '/api/v1/find', { query, index: 'news' })) as {
        segment_by_shard: [number, number][];
      };
      v1.segment_by_shard.forEach(([lo, hi], s) => {
        for (let k = 0; k < 3 && lo + k < hi; k++)
          getDocBodies.push(JSON.stringify({ query, index: 'news', s, rank: lo + Math.floor(((hi - lo) * k) / 3) }));
      });
      const v2 = (await post(single.url, '/api/v2/find', { query, index: 'news' })) as {
        segment_by_shard: [number, number][];
        shard_ids: string[];
      };
      v2.segment_by_shard.forEach(([lo, hi], i) => {
        for (let from = lo; from < hi && from < lo + 5000; from += 1000) {
          pageBodies.push(
            JSON.stringify({
              index: 'news',
              expected_index_version: VERSION,
              query,
              shard_id: v2.shard_ids[i],
              rank_from: from,
              rank_to: Math.min(hi, from + 1000),
            }),
          );
        }
      });
    }
    // Warm-up with other queries (the first requests of a fresh process run cold code and touch cold pages).
    const warm = distinctQueries(45_000)
      .slice(40_000)
      .map((query) => JSON.stringify({ query, index: 'news' }));
    for (const s of [mine, ...(base === null ? [] : [base])])
      for (const [g, ws] of [
        [s.single, [s.whole]],
        [s.cluster, s.parts],
      ] as const)
        await measure(g, ws, '/api/v1/count', warm, 2);
    const loadBefore = loadavg()[0] ?? 0;
    // The same count row against the baseline build (BENCH_BASELINE_NEWS_BIN: main's bin/news.js), interleaved.
    const baseRows: [Measured, Measured, Measured, Measured][] = [];
    if (base !== null) {
      for (let k = 0; k < ROUNDS; k++) {
        // Odd rounds run the four in reverse, so a load drift during a round does not always favour the same one.
        const order = [
          () => measure(base.single, [base.whole], '/api/v1/count', countBodies),
          () => measure(base.cluster, base.parts, '/api/v1/count', countBodies),
          () => measure(single, [whole], '/api/v1/count', countBodies),
          () => measure(cluster, parts, '/api/v1/count', countBodies),
        ];
        const got = new Array<Measured>(4);
        for (const i of k % 2 === 0 ? [0, 1, 2, 3] : [3, 2, 1, 0]) got[i] = await order[i]!();
        baseRows.push(got as [Measured, Measured, Measured, Measured]);
        console.error(
          'baseline vs branch',
          k + 1,
          baseRows
            .at(-1)!
            .map((m) => `${Math.round(m.rps)} rps ${Math.round(m.gatewayUs)} µs`)
            .join(' | '),
        );
      }
    }
    // The count row in rounds, single and cluster alternately first; each round's ratio, the median in the table.
    const countRounds: [Measured, Measured][] = [];
    for (let k = 0; k < ROUNDS; k++) {
      const pair: [Measured, Measured] =
        k % 2 === 0
          ? [
              await measure(single, [whole], '/api/v1/count', countBodies),
              await measure(cluster, parts, '/api/v1/count', countBodies),
            ]
          : (([b, a]) => [a, b] as [Measured, Measured])([
              await measure(cluster, parts, '/api/v1/count', countBodies),
              await measure(single, [whole], '/api/v1/count', countBodies),
            ]);
      countRounds.push(pair);
      console.error(
        'count round',
        k + 1,
        `gateway CPU 3/1 ${(pair[1].gatewayUs / pair[0].gatewayUs).toFixed(2)}, throughput 3/1 ${(pair[1].rps / pair[0].rps).toFixed(2)}`,
        pair,
      );
    }
    if (ONLY_COUNT) return;
    const rows: [string, Measured, Measured][] = [];
    rows.push(['v1 count, distinct queries (cache misses): the median round', ...medianRound(countRounds)]);
    for (const [label, path, bodies] of [
      ['v1 get_doc, 1000 B context', '/api/v1/get_doc', getDocBodies],
      ['v2 documents, 1,000-rank pages', '/api/v2/documents', pageBodies],
    ] as const) {
      // Single first, then the cluster, back to back: the machine is shared, so only the ratio within a run means much.
      const one = await measure(single, [whole], path, bodies);
      const three = await measure(cluster, parts, path, bodies);
      rows.push([label, one, three]);
      console.error(label, one, three);
    }
    const section = clusterSection({
      heading: SECTION,
      seconds: SECONDS,
      loadBefore,
      shardCount: ids.length,
      thirds,
      rows,
      baseRows,
      countRounds,
      bodies: { count: countBodies.length, getDoc: getDocBodies.length, pages: pageBodies.length },
    });
    console.log(section);
    writeBenchmarkSection(SECTION, section);
    console.error(`wrote ${SECTION} in ${BENCHMARKS_FILE}`);
  } finally {
    for (const p of all) p.child.kill('SIGTERM');
  }
}

await main();
