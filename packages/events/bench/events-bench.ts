// npm run bench:events — seeds 10,000 events, 500 venues and 300 organizers into SQLite and PostgreSQL, starts the
// real service as a child process per store, and measures list, single and create throughput with autocannon.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'kysely';
import { openStore } from '../src/db/index.ts';
import { userService } from '../src/user/index.ts';
import { formatWall, makeWall, utcToWall } from '../src/time/index.ts';
import { seed } from './seed.ts';
import { benchValidatorsAndFeeds, cpuTable, type CacheSetup, type CpuSample } from './conditional-bench.ts';
import { recordRecurrenceBench } from './recurrence-bench.ts';
import { benchTecPairs } from './tec-v1-bench.ts';

const BIN = fileURLToPath(new URL('../bin/events.js', import.meta.url));
const BASELINE = fileURLToPath(new URL('./baseline-server.ts', import.meta.url));
// Bodies the service actually sent (a 50-event page, one event), replayed by the baseline server.
const SAMPLES = mkdtempSync(join(tmpdir(), 'events-bench-samples-'));
const SAMPLE_LIST = join(SAMPLES, 'list.json');
const SAMPLE_ONE = join(SAMPLES, 'one.json');
const BENCHMARKS = fileURLToPath(new URL('../../../BENCHMARKS.md', import.meta.url));
const PG_ADMIN = process.env.EVENTS_BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(process.env.EVENTS_BENCH_SECONDS ?? 10);
const COUNTS = { events: 10_000, venues: 500, organizers: 300, categories: 20, tags: 50 };
const PASSWORD = 'bench-password-1';
const FEED_ONLY = process.env.EVENTS_BENCH_ONLY === 'feed';
// EVENTS_BENCH_ONLY=conditional: only the 304-against-200 CPU scenarios, under each cache setup, printed (no file written).
const CONDITIONAL_ONLY = process.env.EVENTS_BENCH_ONLY === 'conditional';
// EVENTS_BENCH_ONLY=tec: only the tec/v1 rows beside their tribe/events/v1 twins (all caches, item cache only), printed.
const TEC_ONLY = process.env.EVENTS_BENCH_ONLY === 'tec';

interface Result {
  name: string;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  non2xx: number;
}
/** 304 against 200 server CPU per store, cache setup and answer (conditional-bench.ts). */
const cpuSamples: CpuSample[] = [];
const BASIC = `Basic ${Buffer.from(`bench:${PASSWORD}`).toString('base64')}`;

async function waitFor(port: number, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (child.exitCode !== null) throw new Error('server exited');
    try {
      await fetch(`http://127.0.0.1:${port}/wp-json/`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error('server did not start');
}

async function cannon(name: string, opts: autocannon.Options): Promise<Result> {
  const r = await autocannon({ duration: DURATION, connections: 10, ...opts });
  return { name, p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, errors: r.errors, non2xx: r.non2xx };
}

async function benchStore(kind: 'sqlite' | 'postgres'): Promise<Result[]> {
  let url: string;
  let dispose: () => Promise<void>;
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'events-bench-'));
    url = `sqlite:${join(dir, 'events.sqlite')}`;
    dispose = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const name = `events_bench_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    url = PG_ADMIN.replace(/\/[^/]*$/, `/${name}`);
    dispose = async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  }
  const now = Date.now();
  const store = await openStore(url);
  const { id: adminId } = await userService(store.db).add('bench', 'administrator', { appPassword: PASSWORD });
  const t0 = performance.now();
  const { eventIds } = await seed(store.db, adminId, now, COUNTS);
  console.log(`${kind}: seeded ${COUNTS.events} events in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // Fresh planner statistics, as autovacuum would gather them on a live PostgreSQL (SQLite analyzes at start).
  if (kind === 'postgres') await sql`analyze`.execute(store.db);
  await store.close();
  const results: Result[] = [];
  const setups = FEED_ONLY
    ? (['items'] as const)
    : TEC_ONLY
      ? (['all', 'items'] as const)
      : (['all', 'items', 'none'] as const);
  for (const caches of setups) results.push(...(await runServer(kind, url, caches, eventIds, now)));
  await dispose();
  return results;
}

/** all: the defaults; items: no response cache (every URL new, as with many distinct filters); none: no caches. */
async function runServer(
  kind: string,
  url: string,
  caches: CacheSetup,
  eventIds: number[],
  now: number,
): Promise<Result[]> {
  const cached = caches === 'all';
  const label = { all: '', items: ' (item cache only)', none: ' (no caches)' }[caches];

  const port = 30000 + Math.floor(Math.random() * 20000);
  // EVENTS_BENCH_CPU_PROF=dir: the server writes a V8 CPU profile there when it exits (node --cpu-prof).
  const prof = process.env.EVENTS_BENCH_CPU_PROF
    ? ['--cpu-prof', '--cpu-prof-dir', process.env.EVENTS_BENCH_CPU_PROF]
    : [];
  const child = spawn(process.execPath, [...prof, BIN, 'serve', '--port', String(port), '--db', url], {
    stdio: 'ignore',
    env: {
      ...process.env,
      EVENTS_LOG_LEVEL: 'warn',
      EVENTS_CACHE_TTL_MS: cached ? '5000' : '0',
      EVENTS_ITEM_CACHE_MB: caches === 'none' ? '0' : '',
    },
  });
  const results: Result[] = [];
  try {
    await waitFor(port, child);
    const base = `http://127.0.0.1:${port}/wp-json/tribe/events/v1`;
    const validatorRun = () =>
      benchValidatorsAndFeeds(
        `http://127.0.0.1:${port}`,
        child.pid!,
        eventIds[eventIds.length >> 1]!,
        label,
        DURATION,
        { store: kind, setup: caches, authorization: caches === 'all' ? BASIC : undefined },
      );
    if (CONDITIONAL_ONLY) {
      const v = await validatorRun();
      cpuSamples.push(...v.cpu);
      return v.results;
    }
    if (FEED_ONLY) {
      // The list bodies of the feed's events are built by the first feed; later feeds render from them.
      for (let i = 0; i < 3; i++) await (await fetch(`${base}/events.ics`)).arrayBuffer();
      const feed = await autocannon({ duration: DURATION, connections: 1, url: `${base}/events.ics` });
      return [
        {
          name: `GET /events.ics (1,000 events), 1 connection${label}`,
          p50: feed.latency.p50,
          p99: feed.latency.p99,
          rps: feed.requests.average,
          errors: feed.errors,
          non2xx: feed.non2xx,
        },
      ];
    }
    // Month-long windows over the seeded year, rotated so no single query is repeated back to back.
    const today = utcToWall(now, 'UTC');
    const windows = Array.from({ length: 24 }, (_, i) => {
      const from = makeWall(today.y, today.mo - 12 + i, 1);
      const to = makeWall(today.y, today.mo - 11 + i, 0);
      return `/wp-json/tribe/events/v1/events?per_page=50&start_date=${encodeURIComponent(formatWall(from).slice(0, 10))}&end_date=${encodeURIComponent(formatWall(to).slice(0, 10))}`;
    });
    // tec/v1 beside tribe/events/v1: lists of 10 over the same windows, GET by id over the same ids (issue 25).
    const tecRows =
      caches === 'none'
        ? []
        : await benchTecPairs(
            `http://127.0.0.1:${port}`,
            windows.map((p) => p.slice(p.indexOf('start_date'))),
            eventIds,
            label,
            DURATION,
          );
    if (TEC_ONLY) return tecRows;
    results.push(...tecRows);
    const check = await fetch(`http://127.0.0.1:${port}${windows[12]}`);
    const text = await check.text();
    const body = JSON.parse(text) as { events: unknown[]; total: number };
    console.log(`${kind}: sample window returns ${body.events.length} of ${body.total} events (${text.length} bytes)`);
    writeFileSync(SAMPLE_LIST, text);
    writeFileSync(SAMPLE_ONE, await (await fetch(`${base}/events/${eventIds[0]}`)).text());
    let w = 0;
    results.push(
      await cannon(`GET /events?per_page=50 + month window${label}`, {
        url: base,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: windows[w++ % windows.length]! }) }],
      }),
    );
    let k = 0;
    const byId = {
      url: base,
      requests: [
        {
          method: 'GET' as const,
          setupRequest: (req: autocannon.Request) => ({
            ...req,
            path: `/wp-json/tribe/events/v1/events/${eventIds[(k++ * 7919) % eventIds.length]}`,
          }),
        },
      ],
    };
    // With caches, the first pass over the 10,000 ids builds every body (cold start); a server that has run a while
    // serves from the item cache, so the rotation is measured again once every id has been read.
    if (caches !== 'none') {
      results.push(await cannon(`GET /events/{id}, cold start${label}`, byId));
      while (k < eventIds.length) await fetch(`${base}/events/${eventIds[(k++ * 7919) % eventIds.length]}`);
    }
    results.push(await cannon(`GET /events/{id}${label}`, byId));
    const v = await validatorRun();
    results.push(...v.results);
    cpuSamples.push(...v.cpu);
    let c = 0;
    if (cached)
      results.push(
        await cannon('POST /events (create)', {
          url: base,
          requests: [
            {
              method: 'POST',
              path: '/wp-json/tribe/events/v1/events',
              headers: { authorization: BASIC, 'content-type': 'application/x-www-form-urlencoded' },
              setupRequest: (req) => ({
                ...req,
                body: `title=Bench+create+${c++}&start_date=tomorrow+9am&end_date=tomorrow+11am&categories=Category+1&cost=10`,
              }),
            },
          ],
        }),
      );
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 6000);
    await exited;
    clearTimeout(timer);
  }
  return results;
}

/** Plain Fastify serving the sampled bodies, measured right after a store so both see the same machine load. */
async function benchBaseline(): Promise<Result[]> {
  const port = 30000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, ['--import', 'tsx', BASELINE, String(port), SAMPLE_LIST, SAMPLE_ONE], {
    stdio: 'ignore',
  });
  try {
    for (let i = 0; i < 400; i++) {
      if (child.exitCode !== null) throw new Error('baseline server exited');
      try {
        await fetch(`http://127.0.0.1:${port}/1`);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const kb = (f: string) => `${Math.round(readFileSync(f).length / 1024)} KB`;
    return [
      await cannon(`baseline: trivial Fastify route, same-size body as the list (${kb(SAMPLE_LIST)})`, {
        url: `http://127.0.0.1:${port}/0`,
      }),
      await cannon(`baseline: trivial Fastify route, same-size body as one event (${kb(SAMPLE_ONE)})`, {
        url: `http://127.0.0.1:${port}/1`,
      }),
    ];
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

const TARGETS: Record<string, string> = {
  'GET /events?per_page=50 + month window': 'p50 ≤ 5 ms, ≥ 1,500 req/s',
  'GET /events/{id}': '≥ 4,000 req/s',
  'GET /events/{id}, cold start': '(first pass over the ids)',
  'GET /events?per_page=50 + month window (item cache only)': '(for comparison)',
  'GET /events/{id} (item cache only)': '(for comparison)',
  'GET /events?per_page=50 + month window (no caches)': '(for comparison)',
  'GET /events/{id} (no caches)': '(for comparison)',
  'POST /events (create)': '≥ 300/s (SQLite)',
  'tec/v1 GET /events?per_page=10 + month window': 'within 10% of the tribe/events/v1 row above',
  'tec/v1 GET /events/{id}': 'within 10% of the tribe/events/v1 row above',
  'tec/v1 GET /events?per_page=10 + month window (item cache only)': 'within 10% of the tribe/events/v1 row above',
  'tec/v1 GET /events/{id} (item cache only)': 'within 10% of the tribe/events/v1 row above',
  'GET /events.ics (1,000 events) 200': '≥ 200 feeds/s cached',
  'GET /events.ics (1,000 events), 1 connection (item cache only)': 'p50 ≤ 50 ms (rendered every time)',
  'GET /events?per_page=50 304 (If-None-Match)': '304 CPU ≤ 25% of the 200 (below)',
  'GET /events/{id} 304 (If-None-Match)': '304 CPU ≤ 25% of the 200 (below)',
  'GET /events.ics (1,000 events) 304 (If-None-Match)': '304 CPU ≤ 25% of the 200 (below)',
};

// EVENTS_BENCH_ONLY=recurrence runs only the recurring-series section (bench/recurrence-bench.ts).
if (process.env.EVENTS_BENCH_ONLY === 'recurrence') {
  await recordRecurrenceBench();
  process.exit(0);
}
// EVENTS_BENCH_ONLY=feed measures only the uncached 1,000-event feed on both stores and prints it (no file written).
if (FEED_ONLY) {
  for (const kind of ['sqlite', 'postgres'] as const)
    for (const r of await benchStore(kind))
      console.log(
        `${kind} ${r.name}: p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.rps.toFixed(0)} req/s, ${r.errors + r.non2xx} errors; load ${loadavg()[0]!.toFixed(1)}`,
      );
  process.exit(0);
}
if (CONDITIONAL_ONLY) {
  const load = loadavg()[0]!;
  for (const kind of ['sqlite', 'postgres'] as const) await benchStore(kind);
  console.log(
    `${DURATION} s per run, 10 connections; 1-minute load average ${load.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after.`,
  );
  console.log(cpuTable(cpuSamples).join('\n'));
  process.exit(0);
}
if (TEC_ONLY) {
  const load = loadavg()[0]!;
  for (const kind of ['sqlite', 'postgres'] as const) {
    for (const r of await benchStore(kind))
      console.log(
        `| ${kind} | ${r.name} | ${r.p50} | ${r.p99} | ${Math.round(r.rps).toLocaleString('en')} | ${r.errors + r.non2xx} |`,
      );
  }
  console.log(
    `${DURATION} s per run, 10 connections; 1-minute load average ${load.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after.`,
  );
  process.exit(0);
}
const loadBefore = loadavg()[0]!;
const all: Record<string, Result[]> = {};
for (const kind of ['sqlite', 'postgres'] as const) {
  all[kind] = await benchStore(kind);
  all[kind].push(...(await benchBaseline()));
}
const loadAfter = loadavg()[0]!;
rmSync(SAMPLES, { recursive: true, force: true });

/** Each service row as a share of the baseline with the same body size measured in the same store's run. */
const ratios = Object.entries(all).flatMap(([kind, rs]) => {
  const base = (what: string) =>
    rs.find((r) => r.name.startsWith(`baseline: trivial Fastify route, same-size body as ${what}`));
  // The tec/v1 pairs compare with each other (lists of 10 have no same-size baseline).
  return rs
    .filter(
      (r) =>
        !r.name.startsWith('baseline') &&
        !r.name.startsWith('POST') &&
        !/ 30[4]|\.ics| 200|^tec\/v1 |^tribe\/events\/v1 /.test(r.name),
    )
    .map((r) => {
      const b = base(r.name.includes('/events/{id}') ? 'one event' : 'the list');
      return b ? `${kind} ${r.name}: ${Math.round((100 * r.rps) / b.rps)}% of baseline` : '';
    })
    .filter(Boolean);
});

const cpu = cpus();
const lines = [
  '## Events calendar (npm run bench:events)',
  '',
  `Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}. ` +
    `Data: ${COUNTS.events.toLocaleString('en')} events (one year either side of today), ${COUNTS.venues} venues, ${COUNTS.organizers} organizers, ` +
    `${COUNTS.categories} categories, ${COUNTS.tags} tags. Server: \`events serve\` in a child process, autocannon with 10 connections for ` +
    `${DURATION} s per scenario on the same machine (client and server share the cores). SQLite: WAL, synchronous=NORMAL. ` +
    `Reads rotate over 24 month windows and 10,000 ids; with caches on, GET by id is measured from a cold start and ` +
    `again once every id has been read (a server that has run a while). Default rows use the service's ` +
    `caches, as the plugin caches built responses until a post is saved: anonymous responses (5 s TTL) and events read ` +
    `by id with their built bodies (64 MiB), both dropped on every committed change, from this or any other connection; ` +
    `"item cache only" rows run with EVENTS_CACHE_TTL_MS=0, as when every request asks for a new URL (other filters, ` +
    `pages, searches): lists then reuse the list bodies of events built before; "no caches" rows also set ` +
    `EVENTS_ITEM_CACHE_MB=0 and show the cost of building every response. Creates authenticate with HTTP Basic. ` +
    `PostgreSQL 15 on 127.0.0.1. Measured ${new Date().toISOString().slice(0, 16)} UTC; 1-minute load average ` +
    `${loadBefore.toFixed(1)} before and ${loadAfter.toFixed(1)} after (other jobs shared the machine: numbers are low bounds).`,
  '',
  '| Store | Scenario | p50 ms | p99 ms | req/s | non-2xx | Target |',
  '|---|---|---:|---:|---:|---:|---|',
  ...Object.entries(all).flatMap(([kind, rs]) =>
    rs.map(
      (r) =>
        `| ${kind} | ${r.name} | ${r.p50} | ${r.p99} | ${Math.round(r.rps).toLocaleString('en')} | ${r.non2xx + r.errors} | ${TARGETS[r.name] ?? ''} |`,
    ),
  ),
  '',
  'Throughput as a share of the baseline rows (plain Fastify, same body size, measured right after that store on the ' +
    'same loaded machine): ' +
    ratios.join('; ') +
    '.',
  '',
  'Conditional requests: server CPU per request (utime+stime of the server process from /proc over each run, divided by ' +
    'the requests answered) for the same URL answered 304 to a matching If-None-Match (anonymous, all caches on) and ' +
    'answered 200 under each cache setup (target: 304 ≤ 25% of the 200):',
  '',
  ...cpuTable(cpuSamples),
  '',
];
console.log(lines.join('\n'));
let doc = '';
try {
  doc = readFileSync(BENCHMARKS, 'utf8');
} catch {
  doc = '# Benchmarks\n\n';
}
const section = lines.join('\n');
const re = /## Events calendar \(npm run bench:events\)[\s\S]*?(?=\n## |$)/;
doc = re.test(doc) ? doc.replace(re, section.trimEnd() + '\n') : `${doc.trimEnd()}\n\n${section}`;
writeFileSync(BENCHMARKS, doc);
console.log(`wrote ${BENCHMARKS}`);
await recordRecurrenceBench();
