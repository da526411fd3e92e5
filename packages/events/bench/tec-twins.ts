// npm run bench:events:tec — `tec/v1` against its `tribe/events/v1` twin on ONE server per store (issue 25's target:
// list of 10 and GET by id within 10%). The two namespaces alternate in short rounds (order flipped every round), so
// both see the same machine load; besides requests per second it reports the server's CPU time per request (user +
// system from /proc), the steadier figure on a shared machine. Same data as bench:events (10,000 events, 500 venues,
// 300 organizers); every id read once through both namespaces first, as on a server that has run a while.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { EEA_SENTENCE } from '../src/tec-v1/gate.ts';
import { benchStore } from './bench-store.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const TREE = resolve(HERE, '../../..');
const ROUNDS = Number(process.env.EVENTS_TEC_ROUNDS ?? 8);
const SECONDS = Number(process.env.EVENTS_TEC_SECONDS ?? 2);
const CLOCK_TICK_MS = 10; // USER_HZ = 100 on Linux
type Ns = 'tribe' | 'tec';
const SCENARIOS = ['list of 10', 'GET by id'] as const;

async function pgQuery(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

async function serve(url: string): Promise<{ base: string; child: ChildProcess }> {
  const port = 30000 + Math.floor(Math.random() * 20000);
  const child = spawn(
    process.execPath,
    [join(TREE, 'packages/events/bin/events.js'), 'serve', '--port', String(port), '--db', url],
    { stdio: 'ignore', env: { ...process.env, EVENTS_LOG_LEVEL: 'warn' } },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error('server exited');
    try {
      await fetch(`${base}/wp-json/`);
      return { base, child };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error('server did not start');
}

/** CPU milliseconds (user + system) the process has used so far. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * CLOCK_TICK_MS;
}

const path = (ns: Ns, rest: string) => `/wp-json/${ns === 'tribe' ? 'tribe/events/v1' : 'tec/v1'}${rest}`;

function options(
  ns: Ns,
  name: (typeof SCENARIOS)[number],
  base: string,
  ids: number[],
  windows: string[],
): autocannon.Options {
  let n = 0;
  const headers: Record<string, string> = ns === 'tec' ? { 'x-tec-eea': EEA_SENTENCE } : {};
  const next = () =>
    name === 'GET by id' ? `/events/${ids[(n++ * 7919) % ids.length]}` : windows[n++ % windows.length]!;
  return {
    url: base,
    duration: SECONDS,
    connections: 10,
    requests: [{ method: 'GET', headers, setupRequest: (r) => ({ ...r, path: path(ns, next()) }) }],
  };
}

const lines: string[] = [];
const loadBefore = loadavg()[0]!;
for (const kind of ['sqlite', 'postgres'] as const) {
  const store = await benchStore(kind, 'events_tec');
  let server: { base: string; child: ChildProcess } | undefined;
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', join(HERE, 'ab-seed.ts'), TREE, store.url], {
      cwd: TREE,
      maxBuffer: 1 << 26,
    }).toString();
    const ids = JSON.parse(out.trim().split('\n').pop()!) as number[];
    if (kind === 'postgres') await pgQuery(store.url, 'analyze');
    server = await serve(store.url);
    const now = new Date();
    const windows = Array.from({ length: 24 }, (_, i) => {
      const day = (m: number, d: number) =>
        new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + m, d)).toISOString().slice(0, 10);
      return `/events?per_page=10&start_date=${day(i - 12, 1)}&end_date=${day(i - 11, 0)}`;
    });
    for (const ns of ['tribe', 'tec'] as const) {
      const headers: Record<string, string> = ns === 'tec' ? { 'x-tec-eea': EEA_SENTENCE } : {};
      for (const id of ids) await fetch(`${server.base}${path(ns, `/events/${id}`)}`, { headers });
      for (const w of windows) await fetch(`${server.base}${path(ns, w)}`, { headers });
    }
    const requests: Record<string, number> = {};
    const cpu: Record<string, number> = {};
    for (const name of SCENARIOS) {
      for (let round = 0; round < ROUNDS; round++) {
        for (const ns of round % 2 ? (['tec', 'tribe'] as const) : (['tribe', 'tec'] as const)) {
          const cpuBefore = cpuMs(server.child.pid!);
          const r = await autocannon(options(ns, name, server.base, ids, windows));
          if (r.non2xx + r.errors > 0)
            throw new Error(`${kind} ${ns} ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
          const key = `${name}:${ns}`;
          requests[key] = (requests[key] ?? 0) + r.requests.total;
          cpu[key] = (cpu[key] ?? 0) + cpuMs(server.child.pid!) - cpuBefore;
        }
      }
    }
    for (const name of SCENARIOS) {
      const rate = (ns: Ns) => requests[`${name}:${ns}`]! / (ROUNDS * SECONDS);
      const perReq = (ns: Ns) => (cpu[`${name}:${ns}`]! * 1000) / requests[`${name}:${ns}`]!;
      lines.push(
        `| ${kind} | ${name} | ${Math.round(rate('tribe')).toLocaleString('en')} | ${Math.round(rate('tec')).toLocaleString('en')} | ${((rate('tec') / rate('tribe')) * 100).toFixed(0)}% | ${perReq('tribe').toFixed(0)} | ${perReq('tec').toFixed(0)} | ${((perReq('tribe') / perReq('tec')) * 100).toFixed(0)}% |`,
      );
      console.log(lines.at(-1));
    }
  } finally {
    server?.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 2000));
    await store.dispose();
  }
}
console.log(
  `\n${ROUNDS} rounds × ${SECONDS} s per scenario and namespace, 10 connections, all caches on; 1-minute load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after.`,
);
console.log(
  '| Store | Scenario | tribe req/s | tec/v1 req/s | tec ÷ tribe | tribe CPU µs/req | tec/v1 CPU µs/req | tribe CPU ÷ tec CPU |\n|---|---|---:|---:|---:|---:|---:|---:|',
);
console.log(lines.join('\n'));
