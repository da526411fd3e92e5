// Part of `npm run bench:events` (alone: EVENTS_BENCH_ONLY=recurrence): the cost of expanding a series, of writing
// one, and list throughput on a calendar where 20% of the events are occurrences of series, against the same calendar
// size without recurring events, measured side by side in one run.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { sql } from 'kysely';
import { openStore } from '../src/db/index.ts';
import { userService } from '../src/user/index.ts';
import { expandSeries, parseRecurrence } from '../src/recurrence/index.ts';
import { formatWall, makeWall, utcToWall } from '../src/time/index.ts';
import { seed } from './seed.ts';

const BIN = fileURLToPath(new URL('../bin/events.js', import.meta.url));
const PG_ADMIN = process.env.EVENTS_BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.EVENTS_BENCH_SECONDS ?? 10);
const PASSWORD = 'bench-password-1';
const TOTAL = 10_000;
const SERIES = 20,
  PER_SERIES = 100; // 20 × 100 = 2,000 events, 20% of the calendar

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** A weekly series over two years (105 occurrences) expanded in its zone, many times: p50/p99 per expansion. */
function benchExpansion(): { p50: number; p99: number; occurrences: number } {
  const today = utcToWall(Date.now(), 'Europe/Berlin');
  const until = makeWall(today.y + 2, today.mo, today.d);
  const spec = parseRecurrence(`FREQ=WEEKLY;UNTIL=${formatWall(until).slice(0, 10).replace(/-/g, '')}`)!;
  const start = { ...today, h: 18, mi: 0, s: 0 };
  const times: number[] = [];
  let occurrences = 0;
  for (let i = 0; i < 2000; i++) {
    const t = performance.now();
    occurrences = expandSeries({ start, zone: 'Europe/Berlin', spec }, { maxOccurrences: 730 }).length;
    times.push(performance.now() - t);
  }
  return { p50: quantile(times.slice(200), 0.5), p99: quantile(times.slice(200), 0.99), occurrences };
}

async function freshStore(kind: 'sqlite' | 'postgres'): Promise<{ url: string; dispose: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'events-bench-rec-'));
    return {
      url: `sqlite:${join(dir, 'events.sqlite')}`,
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `events_bench_rec_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  return {
    url: PG_ADMIN.replace(/\/[^/]*$/, `/${name}`),
    async dispose() {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

interface Calendar {
  base: string;
  pid: number;
  seriesWriteMs: number[];
  close(): Promise<void>;
}

/** CPU time (user + system, ms) a process has used, from /proc: on a shared machine, less noisy than throughput. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ (100/s)
}

/** Seeds a calendar of TOTAL events (plain, or 20% as occurrences of series created through the API) and serves it. */
async function startCalendar(
  kind: 'sqlite' | 'postgres',
  recurring: boolean,
  cacheTtl: string,
  now: number,
): Promise<Calendar> {
  const { url, dispose } = await freshStore(kind);
  const store = await openStore(url);
  const { id: adminId } = await userService(store.db).add('bench', 'administrator', { appPassword: PASSWORD });
  await seed(store.db, adminId, now, {
    events: recurring ? TOTAL - SERIES * PER_SERIES : TOTAL,
    venues: 500,
    organizers: 300,
    categories: 20,
    tags: 50,
  });
  if (kind === 'postgres') await sql`analyze`.execute(store.db);
  await store.close();
  const port = 30000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--db', url], {
    stdio: 'ignore',
    env: { ...process.env, EVENTS_LOG_LEVEL: 'warn', EVENTS_CACHE_TTL_MS: cacheTtl },
  });
  const close = async () => {
    const exited = new Promise((res) => child.once('exit', res));
    child.kill('SIGTERM');
    await exited;
    await dispose();
  };
  try {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null || i > 400) throw new Error('server did not start');
      try {
        await fetch(`http://127.0.0.1:${port}/wp-json/`);
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const base = `http://127.0.0.1:${port}/wp-json/tribe/events/v1`;
    const auth = {
      authorization: `Basic ${Buffer.from(`bench:${PASSWORD}`).toString('base64')}`,
      'content-type': 'application/json',
    };
    const today = utcToWall(now, 'UTC');
    const seriesWriteMs: number[] = [];
    for (let s = 0; recurring && s < SERIES; s++) {
      // Weekly series starting across the past year: their 100 occurrences spread over the two years the lists read.
      const start = formatWall(makeWall(today.y - 1, today.mo, today.d + s * 18, 18));
      const t = performance.now();
      const res = await fetch(`${base}/events`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          title: `Series ${s}`,
          start_date: start,
          end_date: start.replace(' 18:', ' 20:'),
          categories: ['Category 1'],
          recurrence: `FREQ=WEEKLY;COUNT=${PER_SERIES}`,
        }),
      });
      seriesWriteMs.push(performance.now() - t);
      if (res.status !== 201) throw new Error(`series create failed: ${res.status} ${await res.text()}`);
    }
    return { base, pid: child.pid!, seriesWriteMs, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Month lists against two calendars in alternating one-second bursts, so both see the same (shared, noisy) machine:
 * requests per second over all bursts of each.
 */
async function alternate(
  plain: Calendar,
  recurring: Calendar,
  now: number,
): Promise<Record<'plain' | 'recurring', { rps: number; cpuPerRequest: number }>> {
  const today = utcToWall(now, 'UTC');
  const windows = Array.from({ length: 24 }, (_, i) => {
    const from = makeWall(today.y, today.mo - 12 + i, 1),
      to = makeWall(today.y, today.mo - 11 + i, 0);
    return `/wp-json/tribe/events/v1/events?per_page=50&start_date=${formatWall(from).slice(0, 10)}&end_date=${formatWall(to).slice(0, 10)}`;
  });
  const totals = { plain: { requests: 0, cpu: 0 }, recurring: { requests: 0, cpu: 0 } };
  for (let round = 0; round < SECONDS; round++) {
    for (const [name, cal] of (round % 2 === 0
      ? [
          ['plain', plain],
          ['recurring', recurring],
        ]
      : [
          ['recurring', recurring],
          ['plain', plain],
        ]) as Array<['plain' | 'recurring', Calendar]>) {
      let w = round * 7;
      const cpuBefore = cpuMs(cal.pid);
      const r = await autocannon({
        url: cal.base,
        duration: 1,
        connections: 10,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: windows[w++ % windows.length]! }) }],
      });
      if (r.non2xx + r.errors > 0) throw new Error(`${r.non2xx + r.errors} failed list requests`);
      totals[name].cpu += cpuMs(cal.pid) - cpuBefore;
      totals[name].requests += r.requests.average; // a one-second burst: its average is its count
    }
  }
  const of = (t: { requests: number; cpu: number }) => ({
    rps: t.requests / SECONDS,
    cpuPerRequest: t.cpu / t.requests,
  });
  return { plain: of(totals.plain), recurring: of(totals.recurring) };
}

const BENCHMARKS = fileURLToPath(new URL('../../../BENCHMARKS.md', import.meta.url));

/** Runs the recurrence scenarios and writes (or replaces) their own section of BENCHMARKS.md. */
export async function recordRecurrenceBench(): Promise<void> {
  const section = await benchRecurrence();
  console.log(section);
  let doc = '';
  try {
    doc = readFileSync(BENCHMARKS, 'utf8');
  } catch {
    doc = '# Benchmarks\n\n';
  }
  const re = /## Events: recurring series \(npm run bench:events\)[\s\S]*?(?=\n## |$)/;
  doc = re.test(doc) ? doc.replace(re, section.trimEnd() + '\n') : `${doc.trimEnd()}\n\n${section}`;
  writeFileSync(BENCHMARKS, doc);
}

async function benchRecurrence(): Promise<string> {
  const loadBefore = loadavg()[0]!;
  const expansion = benchExpansion();
  console.log(
    `expansion: weekly series over two years (${expansion.occurrences} occurrences): p50 ${expansion.p50.toFixed(2)} ms, p99 ${expansion.p99.toFixed(2)} ms`,
  );
  const rows: string[] = [];
  const now = Date.now();
  for (const kind of ['sqlite', 'postgres'] as const) {
    for (const [label, ttl] of [
      ['default caches', '5000'],
      ['item cache only', '0'],
    ] as const) {
      const plain = await startCalendar(kind, false, ttl, now);
      const recurring = await startCalendar(kind, true, ttl, now);
      try {
        const r = await alternate(plain, recurring, now);
        console.log(
          `${kind} ${label}: plain ${Math.round(r.plain.rps)} req/s, 20% recurring ${Math.round(r.recurring.rps)} req/s`,
        );
        const us = (x: number) => (1000 * x).toFixed(0);
        rows.push(
          `| ${kind} | ${label} | ${Math.round(r.plain.rps).toLocaleString('en')} | ${Math.round(r.recurring.rps).toLocaleString('en')} | ` +
            `${Math.round((100 * r.recurring.rps) / r.plain.rps)}% | ${us(r.plain.cpuPerRequest)} | ${us(r.recurring.cpuPerRequest)} | ` +
            `${Math.round((100 * r.plain.cpuPerRequest) / r.recurring.cpuPerRequest)}% | ${quantile(recurring.seriesWriteMs, 0.5).toFixed(0)} ms |`,
        );
      } finally {
        await plain.close();
        await recurring.close();
      }
    }
  }
  return [
    '## Events: recurring series (npm run bench:events)',
    '',
    `Expanding a weekly series over two years (${expansion.occurrences} occurrences, Europe/Berlin, rrule under the expansion ` +
      `budget, EXDATE/RDATE merge included), 2,000 runs after 200 warm-up: p50 ${expansion.p50.toFixed(2)} ms, ` +
      `p99 ${expansion.p99.toFixed(2)} ms (target ≤ 5 ms).`,
    '',
    `List throughput: ${TOTAL.toLocaleString('en')} events either way; "plain" seeds them all as single events (the calendar of ` +
      `today), "20% recurring" seeds ${(TOTAL - SERIES * PER_SERIES).toLocaleString('en')} and creates ${SERIES} weekly series of ` +
      `${PER_SERIES} occurrences through the API. Month windows of 50 events, autocannon 10 connections, both servers up ` +
      `at once and measured in alternating one-second bursts (${SECONDS} each), compared as a ratio (target ≥ 90%). ` +
      'Server CPU per request (user + system time of the server process over the bursts, from /proc) is the steadier ' +
      'measure on a shared machine: its ratio plain ÷ recurring is the throughput the CPU allows, relative to today ' +
      "(on PostgreSQL the database backends' CPU is not in it). " +
      `Series create = one POST writing the first event and its ${PER_SERIES - 1} occurrences in one transaction. ` +
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, 1-minute load average ` +
      `${loadBefore.toFixed(1)} before and ${loadavg()[0]!.toFixed(1)} after. Measured ${new Date().toISOString().slice(0, 16)} UTC.`,
    '',
    '| Store | Caches | plain req/s | 20% recurring req/s | ratio | plain CPU µs/req | recurring CPU µs/req | CPU ratio | series create p50 |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
}
