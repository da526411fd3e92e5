// Part of `npm run bench:events`: what a 304 costs the server next to the 200s it stands for (server CPU per request,
// read from /proc for the server process), and the 1,000-event iCalendar feed (render latency without the response
// cache, throughput with it). The server's cache setup decides which 200 is measured: built with no caches, built
// from the item cache's bodies, or copied from the response cache.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface Result {
  name: string;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  non2xx: number;
}
/** Server CPU per request of one answer kind, for the 304 table (`cpuTable`). */
export interface CpuSample {
  store: string;
  setup: CacheSetup;
  answer: string;
  kind: '200' | '304' | '304 logged in';
  cpuUs: number;
  kb: number;
}
export type CacheSetup = 'all' | 'items' | 'none';
const TICK_MS = 10; // USER_HZ = 100 on Linux

/** utime + stime of a process, in ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function measured(
  name: string,
  pid: number,
  duration: number,
  opts: autocannon.Options,
): Promise<Result & { cpuUs: number }> {
  const before = cpuMs(pid);
  const r = await autocannon({ duration, connections: 10, ...opts });
  const cpu = cpuMs(pid) - before;
  const total = r.requests.total || 1;
  return {
    name,
    p50: r.latency.p50,
    p99: r.latency.p99,
    rps: r.requests.average,
    errors: r.errors,
    non2xx: r.non2xx,
    cpuUs: (cpu * 1000) / total,
  };
}

/**
 * Runs the validator and feed scenarios against a server at `origin` (process `pid`) whose caches are `setup`;
 * `label` names that setup in result rows. `authorization` (a known Basic credential) adds a logged-in 304 of the item.
 */
export async function benchValidatorsAndFeeds(
  origin: string,
  pid: number,
  eventId: number,
  label: string,
  duration: number,
  run: { store: string; setup: CacheSetup; authorization?: string },
): Promise<{ results: Result[]; cpu: CpuSample[] }> {
  const rest = '/wp-json/tribe/events/v1';
  const cases: Array<[string, string]> = [
    ['GET /events?per_page=50', `${rest}/events?per_page=50`],
    ['GET /events/{id}', `${rest}/events/${eventId}`],
    ['GET /events.ics (1,000 events)', `${rest}/events.ics`],
  ];
  const results: Result[] = [];
  const cpu: CpuSample[] = [];
  for (const [name, path] of cases) {
    const first = await fetch(`${origin}${path}`);
    const etag = first.headers.get('etag') ?? '';
    const kb = (await first.arrayBuffer()).byteLength / 1024;
    const ok = await measured(`${name} 200${label}`, pid, duration, { url: `${origin}${path}` });
    const not = await measured(`${name} 304 (If-None-Match)${label}`, pid, duration, {
      url: `${origin}${path}`,
      headers: { 'if-none-match': etag },
    });
    // A 304 is not 2xx: count only unexpected answers as errors.
    results.push(ok, { ...not, non2xx: 0 });
    cpu.push(
      { ...run, answer: name, kind: '200', cpuUs: ok.cpuUs, kb },
      { ...run, answer: name, kind: '304', cpuUs: not.cpuUs, kb },
    );
    if (run.authorization !== undefined && name === 'GET /events/{id}') {
      const headers = { authorization: run.authorization };
      const mine = (await fetch(`${origin}${path}`, { headers })).headers.get('etag') ?? '';
      const own = await measured(`${name} 304 logged in${label}`, pid, duration, {
        url: `${origin}${path}`,
        headers: { ...headers, 'if-none-match': mine },
      });
      results.push({ ...own, non2xx: 0 });
      cpu.push({ ...run, answer: name, kind: '304 logged in', cpuUs: own.cpuUs, kb });
    }
  }
  // Render latency: one client at a time, so p50 is the time to build and send the feed, not queueing.
  const feed = await autocannon({ duration, connections: 1, url: `${origin}${rest}/events.ics` });
  results.push({
    name: `GET /events.ics (1,000 events), 1 connection${label}`,
    p50: feed.latency.p50,
    p99: feed.latency.p99,
    rps: feed.requests.average,
    errors: feed.errors,
    non2xx: feed.non2xx,
  });
  return { results, cpu };
}

const us = (v: number | undefined) => (v === undefined ? '–' : v.toFixed(0));
const pct = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined ? '–' : `${Math.round((100 * a) / b)}%`;

/**
 * The 304 against each kind of 200, per store and answer (target: a 304 ≤ 25% of the CPU of the same 200). The 304
 * is the default setup's (all caches on); items are never copied to the response cache, so their third 200 is the
 * item cache's.
 */
export function cpuTable(samples: readonly CpuSample[]): string[] {
  const at = (store: string, answer: string, setup: CacheSetup, kind: CpuSample['kind']) =>
    samples.find((s) => s.store === store && s.answer === answer && s.setup === setup && s.kind === kind)?.cpuUs;
  const rows = [...new Set(samples.map((s) => `${s.store}\t${s.answer}`))].map((k) => {
    const [store, answer] = k.split('\t') as [string, string];
    const n304 = at(store, answer, 'all', '304');
    const [built, items, cached] = [
      at(store, answer, 'none', '200'),
      at(store, answer, 'items', '200'),
      at(store, answer, 'all', '200'),
    ];
    const mine = at(store, answer, 'all', '304 logged in');
    return (
      `| ${store} | ${answer} | ${us(n304)} | ${us(built)} (${pct(n304, built)}) | ${us(items)} (${pct(n304, items)}) | ${us(cached)} (${pct(n304, cached)}) | ` +
      `${us(at(store, answer, 'items', '304'))} / ${us(at(store, answer, 'none', '304'))} | ${mine === undefined ? '' : us(mine)} |`
    );
  });
  return [
    '| Store | Answer | 304 µs | 200 built, no caches µs (304 share) | 200 from the item cache µs (304 share) | 200 with the response cache on µs (304 share) | 304 µs, item cache only / no caches | 304 logged in µs |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ];
}
