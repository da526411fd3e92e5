/**
 * `npm run bench:events:creates`: create throughput on each store with distinct titles, and once 10,000 events share
 * one title (issue 25: finding the next free slug read every taken slug, 550–600/s fell to 150–165/s). A fresh store
 * per run, the real service as a child process, autocannon with 4 connections (the wrk had 2 threads, 4
 * connections). Prints a table; EVENTS_BENCH_BIN=path/to/bin/events.js measures another checkout (A/B in one run).
 * EVENTS_BENCH_SECONDS (default 10) per timed run; EVENTS_BENCH_SHARED (default 10000) events sharing the title first.
 */
import { execFileSync, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { benchStore } from './bench-store.ts';
import { createLoad } from './create-load.ts';

const BIN = process.env.EVENTS_BENCH_BIN ?? fileURLToPath(new URL('../bin/events.js', import.meta.url));
const DURATION = Number(process.env.EVENTS_BENCH_SECONDS ?? 10);
const SHARED = Number(process.env.EVENTS_BENCH_SHARED ?? 10_000);
const creates = createLoad;

async function run(kind: 'sqlite' | 'postgres'): Promise<string[]> {
  const db = await benchStore(kind, 'events_creates');
  execFileSync(process.execPath, [
    BIN,
    'user',
    'add',
    'bench',
    '--role',
    'administrator',
    '--app-password',
    'bench-password-0001',
    '--db',
    db.url,
  ]);
  const port = 30000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--db', db.url], {
    stdio: 'ignore',
    env: { ...process.env, EVENTS_LOG_LEVEL: 'warn' },
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        await fetch(`${base}/wp-json/`);
        break;
      } catch {
        if (i > 400) throw new Error('server did not start');
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const row = (name: string, r: autocannon.Result) =>
      `| ${kind} | ${name} | ${Math.round(r.requests.average).toLocaleString('en')} | ${r.latency.p50} | ${r.latency.p99} | ${r.errors + r.non2xx} |`;
    const distinct = await creates(base, (i) => `Distinct create ${i}`, { duration: DURATION });
    const seedStart = performance.now();
    const seeded = await creates(base, () => 'Shared title', { amount: SHARED });
    const seedRate = SHARED / ((performance.now() - seedStart) / 1000);
    const shared = await creates(base, () => 'Shared title', { duration: DURATION });
    return [
      row('distinct titles', distinct),
      `| ${kind} | ${SHARED.toLocaleString('en')} creates of one title (seeding; mean over the run) | ${Math.round(seedRate).toLocaleString('en')} | – | – | ${seeded.errors + seeded.non2xx} |`,
      row(`one title, after ${SHARED.toLocaleString('en')} share it`, shared),
    ];
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
    await db.dispose();
  }
}

const load = loadavg()[0]!;
console.log(`bin: ${BIN}`);
console.log('| store | creates | req/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|---|');
for (const kind of ['sqlite', 'postgres'] as const) for (const line of await run(kind)) console.log(line);
console.log(
  `${DURATION} s per timed run, 4 connections; 1-minute load average ${load.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after.`,
);
