/**
 * `npm run bench:events:webhooks`: per store, with the real service as a child process and a receiver on loopback:
 * create throughput without a subscription and with one (deliveries running beside the writes), enqueue-to-delivery
 * latency of those messages (outbox `created_ms` to arrival), and delivery throughput draining a backlog of
 * EVENTS_BENCH_BACKLOG (default 5000) messages. EVENTS_BENCH_SECONDS (default 10) per timed write run.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { openStore } from '../src/db/index.ts';
import { BIN, serveProcess } from '../test/support/serve-process.ts';
import { benchStore } from './bench-store.ts';
import { BENCH_AUTH, createLoad } from './create-load.ts';

const DURATION = Number(process.env.EVENTS_BENCH_SECONDS ?? 10);
const BACKLOG = Number(process.env.EVENTS_BENCH_BACKLOG ?? 5000);

/** Counts messages and when each `webhook-id` first arrived; answers 204 at once. */
async function receiver() {
  const arrived = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (!arrived.has(id)) arrived.set(id, Date.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, arrived, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const creates = (base: string, opts: { duration?: number; amount?: number }) =>
  createLoad(base, (i) => `Hook ${i}`, opts);

const admin = (base: string, path: string, body?: unknown) =>
  fetch(`${base}/wp-json/events-service/v1/webhooks${path}`, {
    method: 'POST',
    headers: { authorization: BENCH_AUTH, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** The CPU time (user + system) a child process has used so far, from /proc (Linux). */
function cpuMs(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after "pid (comm) ", in clock ticks (100 per s).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function waitUntil(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function run(kind: 'sqlite' | 'postgres'): Promise<string> {
  const db = await benchStore(kind, 'events_webhooks');
  execFileSync(process.execPath, [
    BIN,
    ...'user add bench --role administrator'.split(' '),
    '--app-password',
    'bench-password-0001',
    '--db',
    db.url,
  ]);
  const rx = await receiver();
  const first = await serveProcess(db.url, { EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: '1' });
  const port = first.port;
  let child: ChildProcess | null = first.child;
  const base = `http://127.0.0.1:${port}`;
  try {
    const added = await admin(base, '', { url: rx.url, event_types: ['event.created'] });
    if (added.status !== 201) throw new Error(`subscribing answered ${added.status}: ${await added.text()}`);
    const subId = ((await added.json()) as { id: number }).id;
    // A/B in one process, alternating (the machine's load drifts): paused (nothing enqueued, as with no
    // subscription) and active (enqueued and delivered beside the writes), twice each; the means are compared.
    const rates = { paused: [] as number[], active: [] as number[] };
    // The service's CPU time per create (deliveries included: their messages are drained before the clock stops):
    // what the machine's load cannot skew as much as it skews the rates.
    const cpu = { paused: { ms: 0, creates: 0 }, active: { ms: 0, creates: 0 } };
    for (let round = 0; round < 2; round++) {
      await admin(base, `/${subId}/pause`);
      let cpu0 = cpuMs(first.child);
      const paused = await creates(base, { duration: DURATION });
      rates.paused.push(paused.requests.average);
      cpu.paused.ms += cpuMs(first.child) - cpu0;
      cpu.paused.creates += paused.requests.total - paused.non2xx;
      await admin(base, `/${subId}/resume`);
      const before = rx.arrived.size;
      cpu0 = cpuMs(first.child);
      const active = await creates(base, { duration: DURATION });
      rates.active.push(active.requests.average);
      await waitUntil(() => rx.arrived.size >= before + active.requests.total - active.non2xx, 60_000);
      cpu.active.ms += cpuMs(first.child) - cpu0;
      cpu.active.creates += active.requests.total - active.non2xx;
    }
    const perCreate = (c: { ms: number; creates: number }) => c.ms / Math.max(1, c.creates);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const store = await openStore(db.url);
    let latencies: number[];
    try {
      const rows = await store.db.selectFrom('webhook_outbox').select(['msg_id', 'created_ms']).execute();
      // A create the load generator timed out on may have committed: its message can still be on its way.
      latencies = rows
        .filter((r) => rx.arrived.has(r.msg_id))
        .map((r) => rx.arrived.get(r.msg_id)! - Number(r.created_ms))
        .sort((a, b) => a - b);
    } finally {
      await store.close();
    }
    // Delivery throughput: a backlog written by an instance that delivers nothing, drained by a fresh one.
    await stop(child);
    child = null;
    const writer = await serveProcess(db.url, { EVENTS_WEBHOOK_POLL_MS: '0' });
    // Also the write rate with the trigger's enqueue but no delivery work in the process (another instance delivers).
    const enqueueOnly = await creates(`http://127.0.0.1:${writer.port}`, { amount: BACKLOG });
    await stop(writer.child);
    const drainFrom = rx.arrived.size;
    const sender = await serveProcess(db.url, { EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: '1' });
    child = sender.child;
    const drainStart = performance.now();
    await waitUntil(() => rx.arrived.size >= drainFrom + BACKLOG, 120_000);
    const drainRate = BACKLOG / ((performance.now() - drainStart) / 1000);
    const w0 = Math.round(mean(rates.paused));
    const w1 = Math.round(mean(rates.active));
    const c0 = perCreate(cpu.paused);
    const c1 = perCreate(cpu.active);
    return `| ${kind} | ${w0} | ${w1} | ${(((w1 - w0) / w0) * 100).toFixed(1)}% | ${c0.toFixed(2)} | ${c1.toFixed(2)} | ${(((c1 - c0) / c0) * 100).toFixed(1)}% | ${Math.round(enqueueOnly.requests.average)} | ${latencies.length} | ${pct(latencies, 0.5)} | ${pct(latencies, 0.99)} | ${pct(latencies, 1)} | ${Math.round(drainRate)} |`;
  } finally {
    if (child) await stop(child);
    await rx.close();
    await db.dispose();
  }
}

const load = loadavg()[0]!;
console.log(
  `| store | creates/s, subscription paused | creates/s, subscription active | change | service CPU ms per create, paused | same, active (its delivery included) | change | creates/s, one subscription, delivered by another instance | messages | p50 ms | p99 ms | max ms | delivered/s (a backlog of ${BACKLOG}) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|`,
);
for (const kind of ['sqlite', 'postgres'] as const) console.log(await run(kind));
console.log(
  `${DURATION} s per timed run, 4 connections; 1-minute load average ${load.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after.`,
);
