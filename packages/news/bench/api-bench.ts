/**
 * `npm run bench:api`: the News API through the real gateway and worker processes on loopback, and the worker
 * alone, to show where time goes. Writes the section "## News API (npm run bench:api)" of BENCHMARKS.md.
 *
 * Release: the shared real corpora beside the repository (built once, cached under /tmp).
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { Pool } from 'undici';
import {
  autocannon,
  BENCHMARKS_FILE,
  CORPORA,
  cpuMicros,
  distinctQueries,
  pct,
  spawnListening,
  writeBenchmarkSection,
  type AutocannonResult,
} from './bench-support.ts';
import { buildRelease, INDEX_MANIFEST_FILE } from '../src/release/index.ts';
import { METADATA_STORE_FORMAT_VERSION } from '../src/metadata/index.ts';
import { encodeEnvelope } from '../src/protocol/index.ts';

// Keyed by the metadata store format: a release cached by an older build would measure the older stores.
const RELEASE = `/tmp/news-api-bench/release-store${METADATA_STORE_FORMAT_VERSION}`;
const VERSION = 'api-bench-1';
const SECTION = '## News API (npm run bench:api)';

/** Sequential requests on one keep-alive connection: latency at low load, measured per request with hrtime. */
async function lowLoad(
  origin: string,
  path: string,
  bodies: string[],
  n: number,
): Promise<{ p50: number; p99: number }> {
  const pool = new Pool(origin, { connections: 1 });
  const times: number[] = [];
  for (let i = 0; i < n + 200; i++) {
    const t0 = process.hrtime.bigint();
    const res = await pool.request({
      method: 'POST',
      path,
      body: bodies[i % bodies.length],
      headers: { 'content-type': 'application/json' },
    });
    const text = await res.body.text();
    if (res.statusCode !== 200)
      throw new Error(
        `${path} answered ${res.statusCode}: ${text.slice(0, 200)} to ${bodies[i % bodies.length]!.slice(0, 200)}`,
      );
    if (i >= 200) times.push(Number(process.hrtime.bigint() - t0) / 1e6); // first 200: warm-up
  }
  await pool.close();
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p99: pct(times, 99) };
}

async function load(
  url: string,
  path: string,
  bodies: string[],
  connections: number,
  duration: number,
): Promise<AutocannonResult> {
  let i = 0;
  const r = await autocannon({
    url,
    connections,
    duration,
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
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${path}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return r;
}

async function main(): Promise<void> {
  if (!existsSync(CORPORA)) throw new Error(`the benchmark needs the shared corpora in ${CORPORA}`);
  if (!existsSync(`${RELEASE}/${INDEX_MANIFEST_FILE}`)) {
    console.error(`building the release from ${CORPORA} into ${RELEASE} (once) …`);
    await buildRelease({ inputs: [CORPORA], out: RELEASE, indexVersion: VERSION, force: true });
  }
  const worker = await spawnListening(['worker', '--release', RELEASE, '--index-version', VERSION, '--port', '0']);
  const gateway = await spawnListening(['gateway', '--port', '0'], {
    GATEWAY_INDEX_VERSION: VERSION,
    GATEWAY_WORKER_URL: worker.url,
    GATEWAY_ENVIRONMENT: 'development',
    LOG_LEVEL: 'info',
  });
  try {
    // Queries: words and phrases of different frequency, in the corpora's three main languages.
    const words = [
      'the',
      'Reuter',
      'oil prices',
      'Bundesregierung',
      'und',
      '東京',
      'ニュース',
      'said it',
      'Zürich',
      'market',
      'Wien',
      '株式',
      'in the first quarter',
      'Österreich',
      'dollar',
    ];
    const countBodies = words.map((query) => JSON.stringify({ query, index: 'news' }));
    const workerCount = words.map((query) =>
      encodeEnvelope({ kind: 'count', index: 'news', query, yearMin: null, yearMax: null }),
    );
    // get_doc: ranks from find, spread over each query's segments, 1000-byte context.
    const getDocBodies: string[] = [];
    const workerGetDoc: string[] = [];
    for (const query of words) {
      const res = await fetch(`${gateway.url}/api/v1/find`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, index: 'news' }),
      });
      const f = (await res.json()) as { segment_by_shard: [number, number][] };
      for (const [s, [lo, hi]] of f.segment_by_shard.entries()) {
        for (let k = 0; k < 3 && lo + k < hi; k++) {
          const rank = lo + Math.floor(((hi - lo) * k) / 3);
          getDocBodies.push(JSON.stringify({ query, index: 'news', s, rank, max_ctx_len: 1000 }));
          workerGetDoc.push(
            encodeEnvelope({
              kind: 'get_doc',
              index: 'news',
              query,
              yearMin: null,
              yearMax: null,
              s,
              rank,
              maxCtxLen: 1000,
            }),
          );
        }
      }
    }

    const health = (await (await fetch(`${gateway.url}/api/v2/health`)).json()) as { shards: unknown[] };
    const loadBefore = loadavg()[0] ?? 0;
    const distinct = distinctQueries(40_000);
    const distinctBodies = distinct.map((query) => JSON.stringify({ query, index: 'news' }));
    const distinctWorker = distinct.map((query) =>
      encodeEnvelope({ kind: 'count', index: 'news', query, yearMin: null, yearMax: null }),
    );

    const rows: string[][] = [];
    const ms = (x: number) => x.toFixed(2);
    const seq = async (label: string, path: string, g: string[], w: string[], n: number, target: string) => {
      const a = await lowLoad(gateway.url, path, g, n);
      const b = await lowLoad(worker.url, '/rpc', w, n);
      rows.push([label, `${ms(a.p50)} / ${ms(a.p99)}`, `${ms(b.p50)} / ${ms(b.p99)}`, target]);
    };
    // CPU per request is measured alongside: unlike throughput it hardly depends on what else the machine runs.
    const cpuRows: string[][] = [];
    const cpuPer: Record<string, { gateway: number; worker: number; workerAlone: number }> = {};
    const loaded = async (
      key: string,
      label: string,
      path: string,
      g: string[],
      w: string[],
      c: number,
      target: string,
    ) => {
      const g0 = cpuMicros(gateway.child.pid);
      const w0 = cpuMicros(worker.child.pid);
      const a = await load(gateway.url, path, g, c, 8);
      const g1 = cpuMicros(gateway.child.pid);
      const w1 = cpuMicros(worker.child.pid);
      const b = await load(worker.url, '/rpc', w, c, 8);
      const w2 = cpuMicros(worker.child.pid);
      rows.push([
        label,
        `${Math.round(a.requests.average)}; ${a.latency.p50} / ${a.latency.p99}`,
        `${Math.round(b.requests.average)}; ${b.latency.p50} / ${b.latency.p99}`,
        target,
      ]);
      const per = (us: number, n: number) => Math.round(us / Math.max(n, 1));
      cpuPer[key] = {
        gateway: per(g1 - g0, a.requests.total),
        worker: per(w1 - w0, a.requests.total),
        workerAlone: per(w2 - w1, b.requests.total),
      };
      cpuRows.push([
        label.split(':')[0]!,
        `${per(g1 - g0, a.requests.total)} µs gateway + ${per(w1 - w0, a.requests.total)} µs worker`,
        `${per(w2 - w1, b.requests.total)} µs worker`,
      ]);
    };
    await seq(
      'count, 15 popular queries (cache hits), 1 connection: p50 / p99 ms',
      '/api/v1/count',
      countBodies,
      workerCount,
      3000,
      'p50 ≤ 2 ms',
    );
    await seq(
      'count, distinct queries (cache misses), 1 connection: p50 / p99 ms',
      '/api/v1/count',
      distinctBodies,
      distinctWorker,
      3000,
      'p50 ≤ 2 ms',
    );
    await seq(
      'get_doc 1000 B context, 1 connection: p50 / p99 ms',
      '/api/v1/get_doc',
      getDocBodies,
      workerGetDoc,
      2000,
      '',
    );
    await loaded(
      'count popular',
      'count, popular queries, 16 connections: req/s; p50 / p99 ms',
      '/api/v1/count',
      countBodies,
      workerCount,
      16,
      '≥ 3,000 req/s, p99 ≤ 20 ms',
    );
    await loaded(
      'count distinct',
      'count, distinct queries, 16 connections: req/s; p50 / p99 ms',
      '/api/v1/count',
      distinctBodies,
      distinctWorker,
      16,
      '≥ 3,000 req/s, p99 ≤ 20 ms',
    );
    await loaded(
      'get_doc',
      'get_doc 1000 B context, 16 connections: req/s; p50 / p99 ms',
      '/api/v1/get_doc',
      getDocBodies,
      workerGetDoc,
      16,
      '≥ 2,000 req/s',
    );

    const table = [
      '| Measurement | gateway + worker | worker alone | target |',
      '|---|---|---|---|',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
    const cpuTable = [
      '| CPU time per request (under load) | gateway + worker | worker alone |',
      '|---|---|---|',
      ...cpuRows.map((r) => `| ${r.join(' | ')} |`),
    ].join('\n');
    const cpu = cpus()[0]?.model ?? 'unknown CPU';
    const ratio = (c: { gateway: number; worker: number } | undefined) =>
      c === undefined ? '?' : (c.gateway / Math.max(c.worker, 1)).toFixed(1);
    const section = `${SECTION}

Machine: ${cpus().length} cores (${cpu}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}. Run on ${new Date().toISOString().slice(0, 16)}Z;
1-minute load average ${loadBefore.toFixed(1)} at the start and ${(loadavg()[0] ?? 0).toFixed(1)} at the end (other jobs on the machine skew the numbers when it is above ~1).
Release: the four shared corpora (${health.shards.length} monthly shards; a count is one binary-search pair per shard), worker in memory mode
with its 10,000-entry count/find result cache; ${countBodies.length} popular and ${distinctBodies.length} distinct count queries and ${getDocBodies.length} get_doc requests rotated;
gateway logging one line per request. Load generator: autocannon in the benchmark process, so load generator, gateway
and worker share the 2 cores; the sequential rows use one keep-alive connection and time each request with hrtime.
"worker alone" sends the same work as internal protocol messages straight to the worker (\`POST /rpc\`); the
difference is the gateway's overhead (HTTP parse, validation, a second HTTP hop, JSON re-encoding, the log line).

${table}

${cpuTable}

Reading: the CPU table is the signal that survives a busy machine. Per cached count the gateway spends
${ratio(cpuPer['count popular'])}× the worker's CPU (request parsing and validation, the second HTTP hop, the log line;
socket writes are the largest single part of its CPU profile), so on 2 shared cores the hop, not the index, limits
cached throughput. A cache miss costs the worker one lower-bound binary search per shard (${health.shards.length} monthly
shards) and an upper-bound search only where the phrase occurs: ${cpuPer['count distinct']?.workerAlone ?? '?'} µs of worker CPU per
distinct query here, against ${cpuPer['count popular']?.workerAlone ?? '?'} µs for a cached one.
`;
    console.log(section);
    writeBenchmarkSection(SECTION, section);
    console.error(`wrote ${SECTION} in ${BENCHMARKS_FILE}`);
  } finally {
    gateway.child.kill('SIGTERM');
    worker.child.kill('SIGTERM');
  }
}

await main();
