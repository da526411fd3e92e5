/** The text of BENCHMARKS.md's "News scale-out" section from the numbers cluster-bench.ts measured. */
import { cpus, loadavg, totalmem } from 'node:os';

export interface Measured {
  rps: number;
  p99: number;
  gatewayUs: number;
  workersUs: number;
}

export interface ClusterRun {
  readonly heading: string;
  readonly seconds: number;
  readonly loadBefore: number;
  readonly shardCount: number;
  readonly thirds: readonly (readonly string[])[];
  readonly bodies: { readonly count: number; readonly getDoc: number; readonly pages: number };
  /** Label, single worker, three workers. */
  readonly rows: readonly (readonly [string, Measured, Measured])[];
  /** Count rows of the baseline build and this one, interleaved: base 1, base 3, this 1, this 3. */
  readonly baseRows: readonly (readonly [Measured, Measured, Measured, Measured])[];
  /** The count row's rounds: single worker, three workers. */
  readonly countRounds: readonly (readonly [Measured, Measured])[];
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

function countRoundsTable(run: ClusterRun): string {
  const r = run.countRounds;
  const lines = r.map(
    ([one, three], k) =>
      `| ${k + 1} | ${cell(one)} | ${cell(three)} | ${(three.rps / one.rps).toFixed(2)} | ${(three.gatewayUs / one.gatewayUs).toFixed(2)} |`,
  );
  return `The count row in ${r.length} rounds (single and cluster alternately first; the table above shows the median round):

| round | 1 worker | 3 workers | throughput 3/1 | gateway CPU 3/1 |
|---|---|---|---|---|
${lines.join('\n')}
| median | | | ${median(r.map(([a, b]) => b.rps / a.rps)).toFixed(2)} | ${median(r.map(([a, b]) => b.gatewayUs / a.gatewayUs)).toFixed(2)} |`;
}

const f = (x: number) => Math.round(x).toLocaleString('en-US');
const cell = (m: Measured) => `${f(m.rps)}; ${m.p99}; ${f(m.gatewayUs)} + ${f(m.workersUs)}`;

/**
 * Separate machines, from the count row's CPU: a worker's cost per call is a fixed part (framing, parse, reply) plus
 * its share of the shard searches; with one worker it pays both once, with three the fixed part three times.
 */
function separateMachines(one: Measured, three: Measured): string {
  const workerFixed = Math.max(0, (three.workersUs - one.workersUs) / 2);
  const search = Math.max(0, one.workersUs - workerFixed);
  const gatewayPerCall = Math.max(0, (three.gatewayUs - one.gatewayUs) / 2);
  const gatewayBase = Math.max(0, one.gatewayUs - gatewayPerCall);
  const rows = [1, 2, 3, 4, 6, 8, 12].map((n) => {
    const host = workerFixed + search / n;
    const gateway = gatewayBase + n * gatewayPerCall;
    const bound = Math.min(1e6 / host, 1e6 / gateway);
    return `| ${n} | ${f(host)} | ${f(1e6 / host)} | ${f(gateway)} | ${f(1e6 / gateway)} | ${f(bound)} (${1e6 / host < 1e6 / gateway ? 'workers' : 'gateway core'}) |`;
  });
  return `Separate machines (extrapolated from the count row's CPU per request, not measured): per count a worker pays a fixed
${f(workerFixed)} µs (its framing, parse and reply: (3-worker total − 1-worker) / 2) plus its share of ${f(search)} µs of shard searches;
the gateway pays ${f(gatewayBase)} µs plus ${f(gatewayPerCall)} µs per worker it calls. With N worker hosts each holding 1/N of the shards
(one core each) and one gateway core:

| worker hosts N | µs per count per host | counts/s the hosts allow | gateway µs per count | counts/s one gateway core allows | counts/s |
|---|---|---|---|---|---|
${rows.join('\n')}

Past the point where the gateway core is the limit, add gateway processes (stateless, any number behind a balancer). Year-limited
counts call only the workers holding those years, so they pay fewer fixed parts. get_doc and documents pages go to one replica of the
named shard, so their throughput grows with replicas of the busy shards.`;
}

function baseline(run: ClusterRun): string {
  if (run.baseRows.length === 0)
    return "Baseline not measured in this run (set BENCH_BASELINE_NEWS_BIN to another checkout's packages/news/bin/news.js).";
  const lines = run.baseRows.map(
    ([b1, b3, t1, t3], k) =>
      `| ${k + 1} | ${cell(b1)} | ${cell(b3)} | ${cell(t1)} | ${cell(t3)} | ${(b3.rps / b1.rps).toFixed(2)} → ${(t3.rps / t1.rps).toFixed(2)} | ${(b3.gatewayUs / b1.gatewayUs).toFixed(2)} → ${(t3.gatewayUs / t1.gatewayUs).toFixed(2)} |`,
  );
  const range = (xs: number[], digits = 2) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
  const r = run.baseRows;
  return `Against the baseline build (BENCH_BASELINE_NEWS_BIN, "main" below), the count row again, both builds up at once, interleaved
(main 1 worker, main 3 workers, this 1 worker, this 3 workers; odd rounds in reverse order), ${r.length} rounds. Over the rounds, this build's 3-worker gateway
CPU per count is ${range(r.map(([b1, , , t3]) => t3.gatewayUs / b1.gatewayUs))}× main's single-worker gateway (main's own 3-worker gateway:
${range(r.map(([b1, b3]) => b3.gatewayUs / b1.gatewayUs))}×) and its own 3/1 ratio ${range(r.map(([, , t1, t3]) => t3.gatewayUs / t1.gatewayUs))}×; 3-worker count throughput is
${range(r.map(([b1, , , t3]) => t3.rps / b1.rps))}× main's single worker (main 3/1: ${range(r.map(([b1, b3]) => b3.rps / b1.rps))}; this 3/1: ${range(r.map(([, , t1, t3]) => t3.rps / t1.rps))}).

| round | main, 1 worker | main, 3 workers | this, 1 worker | this, 3 workers | throughput 3/1 main → this | gateway CPU 3/1 main → this |
|---|---|---|---|---|---|---|
${lines.join('\n')}`;
}

export function clusterSection(run: ClusterRun): string {
  const [, one, three] = run.rows[0] as readonly [string, Measured, Measured];
  const cpuRatio = median(run.countRounds.map(([a, b]) => b.gatewayUs / a.gatewayUs));
  const rpsRatio = median(run.countRounds.map(([a, b]) => b.rps / a.rps));
  const n = cpus().length;
  return `${run.heading}

Machine: ${n} cores (${cpus()[0]?.model ?? 'unknown CPU'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}. Run on ${new Date().toISOString().slice(0, 16)}Z;
1-minute load average ${run.loadBefore.toFixed(1)} at the start and ${(loadavg()[0] ?? 0).toFixed(1)} at the end (the machine is shared with other jobs: compare within the run).
Release: the four shared corpora, ${run.shardCount} monthly shards; the cluster's three workers serve ${run.thirds.map((t) => t.length).join(' / ')} contiguous shards each
(\`news worker --shards\`), the single worker all of them; every worker in memory mode with its result cache. Both gateways log one line per
request. Load: autocannon, 16 connections, ${run.seconds} s per row after a 2 s warm-up of each gateway on other queries, single first then
cluster, in the benchmark process — load generator, gateway(s) and worker(s) all share the same ${n} cores. ${run.bodies.count.toLocaleString('en-US')} distinct count
queries (each gateway continues its rotation across rows, so every one is a cache miss), ${run.bodies.getDoc} get_doc requests, ${run.bodies.pages} v2
documents pages. CPU per request from /proc (user + system, 10 ms ticks) over the row.

| Request (16 connections) | 1 worker: req/s; p99 ms; CPU µs/req gateway + worker | 3 workers: req/s; p99 ms; CPU µs/req gateway + workers | throughput 3/1 | gateway CPU 3/1 |
|---|---|---|---|---|
${run.rows.map(([label, a, b]) => `| ${label} | ${cell(a)} | ${cell(b)} | ${(b.rps / a.rps).toFixed(2)} | ${(b.gatewayUs / a.gatewayUs).toFixed(2)} |`).join('\n')}

${countRoundsTable(run)}

Targets (issue 14): the gateway's fan-out costs ≤ 1.3× the single-worker gateway CPU per count (median of the rounds ${cpuRatio.toFixed(2)}×: ${cpuRatio <= 1.3 ? 'met' : 'missed'}),
and total throughput ≥ 80% of the single worker's on the same cores (median ${(rpsRatio * 100).toFixed(0)}% for counts: ${rpsRatio >= 0.8 ? 'met' : 'missed'}).

${baseline(run)}

Where the gateway's CPU per fanned-out count went (issue 14 step 1: \`node --cpu-prof\` of both gateways of this build under this count
load, 10 s each; self time per request, 3-worker minus 1-worker gateway, on the loaded machine): socket writes and reads to the workers
(one write per worker per event-loop turn and one read per reply; in the profile their wall time includes being preempted by the woken
worker, so only /proc CPU above counts them fairly), garbage collection (+10 µs), then the routing JS: \`holds\` + \`assign\` working out
per request which replica answers which of the 83 shards (a lookup per shard per replica: 8–9 µs), the fan-out and worker-client
promise layers (5 µs), \`nextTick\`/microtasks of the extra calls (8 µs), and one timer plus two named closures (esbuild's \`__name\`, an
\`Object.defineProperty\` each) per call (4 µs). What changed (src/gateway/DESIGN.md "Worker stream" and "Routing"): year-selected shard
lists and their routes are worked out once and reused until a replica changes; the fallback flag travels with the route; one expiry
timer per stream instead of one per call; no per-call wrapper closures; one async layer less per call; frames of one event-loop turn
leave in one write (no cork/uncork) and a frame whose call expired is not sent; parts are joined without \`flat()\`. Tried and dropped:
holding frames to batch more calls per write — until the worker's next reply (Nagle-style) or for 1 ms: the worker idled between
batches, single-worker throughput fell and CPU per count rose; with at most two writes in flight per worker: no gain within the noise.

${separateMachines(one, three)}
`;
}
