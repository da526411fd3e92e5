// npm run bench:events:ab -- BEFORE_TREE [AFTER_TREE] — the same list, by-id and create scenarios as bench:events,
// on two checkouts at once: each serves its own equally seeded store, and the builds alternate in short rounds of each
// scenario (order flipped every round), so both see the same machine load. On a shared, busy machine the ratio
// after/before is the number to read; absolute rates are low bounds.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const [before, after = resolve(HERE, '../../..')] = process.argv.slice(2).map((p) => resolve(p));
if (before === undefined) throw new Error('usage: bench:events:ab -- BEFORE_TREE [AFTER_TREE] (repository roots)');
const ROUNDS = Number(process.env.EVENTS_AB_ROUNDS ?? 6);
const SECONDS = Number(process.env.EVENTS_AB_SECONDS ?? 4);
const PG_ADMIN = process.env.EVENTS_BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const AUTH = `Basic ${Buffer.from('bench:bench-password-1').toString('base64')}`;
const SCENARIOS = ['list', 'byId', 'create'] as const;
type Build = 'before' | 'after';

async function pgQuery(url: string, text: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/** A fresh store per build; returns its URL and how to drop it. */
async function freshStore(
  kind: 'sqlite' | 'postgres',
  build: Build,
): Promise<{ url: string; dispose: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `events-ab-${build}-`));
    return {
      url: `sqlite:${join(dir, 'events.sqlite')}`,
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `events_ab_${build}_${process.pid}`;
  await pgQuery(PG_ADMIN, `create database ${name}`);
  const url = PG_ADMIN.replace(/\/[^/]*$/, `/${name}`);
  return { url, dispose: () => pgQuery(PG_ADMIN, `drop database if exists ${name} with (force)`) };
}

async function serve(tree: string, url: string): Promise<{ base: string; child: ChildProcess }> {
  const port = 30000 + Math.floor(Math.random() * 20000);
  const child = spawn(
    process.execPath,
    [join(tree, 'packages/events/bin/events.js'), 'serve', '--port', String(port), '--db', url],
    { stdio: 'ignore', env: { ...process.env, EVENTS_LOG_LEVEL: 'warn' } },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${tree}: server exited`);
    try {
      await fetch(`${base}/wp-json/`);
      return { base, child };
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${tree}: server did not start`);
}

function scenario(
  name: (typeof SCENARIOS)[number],
  base: string,
  ids: number[],
  windows: string[],
): autocannon.Options {
  let n = 0;
  const request: autocannon.RequestSpec =
    name === 'create'
      ? {
          method: 'POST',
          path: '/wp-json/tribe/events/v1/events',
          headers: { authorization: AUTH, 'content-type': 'application/x-www-form-urlencoded' },
          setupRequest: (r) => ({
            ...r,
            body: `title=Bench+create+${n++}&start_date=tomorrow+9am&end_date=tomorrow+11am&categories=Category+1&cost=10`,
          }),
        }
      : {
          method: 'GET',
          setupRequest: (r) => ({
            ...r,
            path:
              name === 'list'
                ? windows[n++ % windows.length]!
                : `/wp-json/tribe/events/v1/events/${ids[(n++ * 7919) % ids.length]}`,
          }),
        };
  return { url: base, duration: SECONDS, connections: 10, requests: [request] };
}

const trees: Record<Build, string> = { before, after };
const lines: string[] = [];
const loadBefore = loadavg()[0]!;
for (const kind of ['sqlite', 'postgres'] as const) {
  const stores = { before: await freshStore(kind, 'before'), after: await freshStore(kind, 'after') };
  const servers: Partial<Record<Build, { base: string; child: ChildProcess }>> = {};
  try {
    const ids = {} as Record<Build, number[]>;
    for (const b of ['before', 'after'] as const) {
      const out = execFileSync(
        process.execPath,
        ['--import', 'tsx', join(HERE, 'ab-seed.ts'), trees[b], stores[b].url],
        { cwd: trees[b], maxBuffer: 1 << 26 },
      ).toString();
      ids[b] = JSON.parse(out.trim().split('\n').pop()!) as number[];
      if (kind === 'postgres') await pgQuery(stores[b].url, 'analyze');
      servers[b] = await serve(trees[b], stores[b].url);
    }
    const now = new Date();
    const windows = Array.from({ length: 24 }, (_, i) => {
      const day = (m: number, d: number) =>
        new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + m, d)).toISOString().slice(0, 10);
      return `/wp-json/tribe/events/v1/events?per_page=50&start_date=${day(i - 12, 1)}&end_date=${day(i - 11, 0)}`;
    });
    // Every id read once first, as on a server that has run a while (bench:events' warm by-id rows).
    for (const b of ['before', 'after'] as const)
      for (const id of ids[b]) await fetch(`${servers[b]!.base}/wp-json/tribe/events/v1/events/${id}`);
    const total: Record<string, number> = {};
    // Scenario by scenario, creates last: a build that creates faster holds more events, which must not slow its reads.
    for (const name of SCENARIOS) {
      for (let round = 0; round < ROUNDS; round++) {
        for (const b of round % 2 ? (['after', 'before'] as const) : (['before', 'after'] as const)) {
          const r = await autocannon(scenario(name, servers[b]!.base, ids[b], windows));
          if (r.non2xx + r.errors > 0) throw new Error(`${b} ${kind} ${name}: ${r.non2xx} non-2xx, ${r.errors} errors`);
          total[`${name}:${b}`] = (total[`${name}:${b}`] ?? 0) + r.requests.total;
        }
      }
    }
    for (const name of SCENARIOS) {
      const rate = (b: Build) => total[`${name}:${b}`]! / (ROUNDS * SECONDS);
      lines.push(
        `| ${kind} | ${name} | ${Math.round(rate('before')).toLocaleString('en')} | ${Math.round(rate('after')).toLocaleString('en')} | ${(rate('after') / rate('before')).toFixed(2)} |`,
      );
      console.log(lines.at(-1));
    }
  } finally {
    for (const s of Object.values(servers)) s.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 2000));
    for (const s of Object.values(stores)) await s.dispose();
  }
}
console.log(
  `\n${ROUNDS} rounds × ${SECONDS} s per scenario and build, 10 connections; 1-minute load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after.`,
);
console.log('| Store | Scenario | before req/s | after req/s | after/before |\n|---|---|---:|---:|---:|');
console.log(lines.join('\n'));
