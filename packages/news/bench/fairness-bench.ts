/**
 * `npm run bench:fairness` (issue 23 item 10): a cheap-count prober (v1 count, distinct queries, one at a time) alone,
 * then beside 20 concurrent expensive clients (estimate, timeline, case-insensitive whole-word v2 count in rotation),
 * against one worker on the shared corpora. Three gateways on that worker, one run: admission opened wide (per-client
 * 1000, 15 in flight: what the gateway did before admission), the defaults with the 20 clients on 20 addresses
 * (X-Forwarded-For from the trusted loopback proxy), and the defaults with all 20 on one address.
 * Clients honour Retry-After. Writes "## News fairness between clients (npm run bench:fairness)" of BENCHMARKS.md.
 * Environment: BENCH_SECONDS per loaded row (10).
 */
import { loadavg } from 'node:os';
import {
  ADMISSION_OPEN_ENV,
  distinctQueries,
  ensureCorporaRelease,
  pct,
  spawnListening,
  writeBenchmarkSection,
} from './bench-support.ts';
import { ADMISSION_DEFAULTS } from '../src/gateway/config/index.ts';

const RELEASE = '/tmp/news-fairness-bench/release';
const VERSION = 'fairness-bench-1';
const SECTION = '## News fairness between clients (npm run bench:fairness)';
const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const CLIENTS = 20;

const EXPENSIVE: readonly [string, object][] = [
  ['/api/v2/estimate', { query: 'the', index: 'news' }],
  ['/api/v2/timeline', { query: 'market', index: 'news' }],
  ['/api/v2/count', { query: 'die', index: 'news', case: 'insensitive', whole_word: true }],
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Load {
  ok: number;
  refused429: number;
  overloaded503: number;
  other: number;
}

/** One expensive client: calls in rotation until `until`, waiting Retry-After seconds when refused. */
async function expensiveClient(url: string, ip: string | null, k: number, until: number, load: Load): Promise<void> {
  for (let i = k; performance.now() < until; i++) {
    const [path, body] = EXPENSIVE[i % EXPENSIVE.length]!;
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      ...(ip === null ? {} : { 'x-forwarded-for': ip }),
    };
    const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    await res.arrayBuffer();
    if (res.status === 200) load.ok++;
    else if (res.status === 429) load.refused429++;
    else if (res.status === 503) load.overloaded503++;
    else load.other++;
    if (res.status === 429 || res.status === 503) await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
  }
}

/** Cheap v1 counts one after another until `until`: latencies in ms (of every answer, failed ones too) and failures. */
async function probe(url: string, queries: string[], until: number): Promise<{ ms: number[]; failed: number }> {
  const ms: number[] = [];
  let failed = 0;
  while (performance.now() < until) {
    const body = JSON.stringify({ query: queries.pop() ?? 'the', index: 'news' });
    const t0 = performance.now();
    const res = await fetch(`${url}/api/v1/count`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '192.0.2.200' },
      body,
    });
    await res.arrayBuffer();
    if (res.status !== 200) failed++;
    ms.push(performance.now() - t0);
    await sleep(20);
  }
  return { ms: ms.sort((a, b) => a - b), failed };
}

interface Row {
  label: string;
  p50: number;
  p99: number;
  n: number;
  failed: number;
  load: Load | null;
}

async function row(label: string, url: string, queries: string[], ips: 'distinct' | 'one' | null): Promise<Row> {
  const until = performance.now() + SECONDS * 1000;
  const load: Load = { ok: 0, refused429: 0, overloaded503: 0, other: 0 };
  const clients =
    ips === null
      ? []
      : Array.from({ length: CLIENTS }, (_, k) =>
          expensiveClient(url, ips === 'distinct' ? `10.0.0.${k + 1}` : '10.9.9.9', k, until, load),
        );
  const { ms, failed } = await probe(url, queries, until);
  await Promise.all(clients);
  const r = { label, p50: pct(ms, 50), p99: pct(ms, 99), n: ms.length, failed, load: ips === null ? null : load };
  console.error(label, JSON.stringify(r));
  return r;
}

async function main(): Promise<void> {
  await ensureCorporaRelease(RELEASE, VERSION);
  const worker = await spawnListening([
    'worker',
    '--release',
    RELEASE,
    '--index-version',
    VERSION,
    '--port',
    '0',
    '--verify',
    'sizes',
  ]);
  const env = {
    GATEWAY_INDEX_VERSION: VERSION,
    GATEWAY_WORKER_URL: worker.url,
    GATEWAY_ENVIRONMENT: 'development',
    GATEWAY_TRUST_PROXY: '127.0.0.1,::1',
  };
  const wide = await spawnListening(['gateway', '--port', '0'], { ...env, ...ADMISSION_OPEN_ENV });
  const admitted = await spawnListening(['gateway', '--port', '0'], env);
  const lane1 = await spawnListening(['gateway', '--port', '0'], { ...env, GATEWAY_EXPENSIVE_IN_FLIGHT: '1' });
  const procs = [worker, wide, admitted, lane1];
  try {
    // Distinct queries so every cheap count misses the worker's cache, as a new user's would.
    const queries = distinctQueries(20_000);
    await row('warm-up', admitted.url, queries.splice(0, 200), null);
    const loadBefore = loadavg()[0] ?? 0;
    const rows = [
      await row('cheap count alone', admitted.url, queries, null),
      await row('beside 20 expensive clients, admission opened wide (before)', wide.url, queries, 'distinct'),
      await row(`beside 20 expensive clients on 20 addresses, defaults (after)`, admitted.url, queries, 'distinct'),
      await row('beside 20 expensive clients on one address, defaults (after)', admitted.url, queries, 'one'),
      await row(
        'beside 20 expensive clients on 20 addresses, GATEWAY_EXPENSIVE_IN_FLIGHT=1',
        lane1.url,
        queries,
        'distinct',
      ),
    ];
    const fmt = (n: number) => n.toFixed(1);
    const loadCell = (l: Load | null) =>
      l === null ? '—' : `${l.ok} / ${l.refused429} / ${l.overloaded503}${l.other > 0 ? ` (+${l.other} other)` : ''}`;
    writeBenchmarkSection(
      SECTION,
      `${SECTION}

Issue 23 item 10. One worker on the shared corpora (release built once into ${RELEASE}), gateways on the same 2-core
machine, ${SECONDS} s per row. A prober sends v1 counts of distinct queries (cache misses) one at a time, 20 ms apart;
20 expensive clients call estimate ("the"), timeline ("market") and a case-insensitive whole-word v2 count ("die") in
rotation, each waiting for its answer and honouring \`Retry-After\`. A probe that is not 200 (503 after the 2 s deadline)
counts with its latency. "Opened wide" is this build with
GATEWAY_EXPENSIVE_PER_CLIENT=1000 and GATEWAY_EXPENSIVE_IN_FLIGHT=15, i.e. no admission; the defaults are
${ADMISSION_DEFAULTS.perClient} per client and ${ADMISSION_DEFAULTS.inFlight} in flight. Load average before the rows: ${loadBefore.toFixed(2)}.

| Row | cheap count p50 ms | p99 ms | probes (not 200) | expensive 200 / 429 / 503 |
|---|---:|---:|---:|---|
${rows.map((r) => `| ${r.label} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.n} (${r.failed}) | ${loadCell(r.load)} |`).join('\n')}

The worker slices long v2 calls (it pauses every few ms, gateway DESIGN.md "Work limits and cancellation"), so the
"opened wide" row already has that half of the fix; admission adds the other half, at most
GATEWAY_EXPENSIVE_IN_FLIGHT expensive calls on the worker at once. Issue 23's figure before both was p50 816 ms /
p99 1,303 ms. The machine is shared: read the rows of one run against each other, not across runs.
`,
    );
  } finally {
    for (const p of procs) p.child.kill();
  }
}

await main();
