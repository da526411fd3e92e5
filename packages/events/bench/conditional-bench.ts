// Part of `npm run bench:events`: what a 304 costs the server next to the 200 it stands for (server CPU per request,
// read from /proc for the server process), and the 1,000-event iCalendar feed (render latency without the response
// cache, throughput with it).
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface Result { name: string; p50: number; p99: number; rps: number; errors: number; non2xx: number }
const TICK_MS = 10; // USER_HZ = 100 on Linux

/** utime + stime of a process, in ms. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

async function measured(name: string, pid: number, duration: number, opts: autocannon.Options): Promise<Result & { cpuUs: number }> {
  const before = cpuMs(pid);
  const r = await autocannon({ duration, connections: 10, ...opts });
  const cpu = cpuMs(pid) - before;
  const total = r.requests.total || 1;
  return { name, p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, errors: r.errors, non2xx: r.non2xx, cpuUs: (cpu * 1000) / total };
}

/**
 * Runs the validator and feed scenarios against a server at `origin` (process `pid`); `label` names the cache setup.
 * Returns rows for the results table and sentences comparing 304 and 200 CPU.
 */
export async function benchValidatorsAndFeeds(origin: string, pid: number, eventId: number, label: string, duration: number): Promise<{ results: Result[]; notes: string[] }> {
  const rest = '/wp-json/tribe/events/v1';
  const cases: Array<[string, string]> = [
    ['GET /events?per_page=50', `${rest}/events?per_page=50`],
    ['GET /events/{id}', `${rest}/events/${eventId}`],
    ['GET /events.ics (1,000 events)', `${rest}/events.ics`],
  ];
  const results: Result[] = [];
  const notes: string[] = [];
  for (const [name, path] of cases) {
    const first = await fetch(`${origin}${path}`);
    const etag = first.headers.get('etag') ?? '';
    const bytes = (await first.arrayBuffer()).byteLength;
    const ok = await measured(`${name} 200${label}`, pid, duration, { url: `${origin}${path}` });
    const not = await measured(`${name} 304 (If-None-Match)${label}`, pid, duration, { url: `${origin}${path}`, headers: { 'if-none-match': etag } });
    // A 304 is not 2xx: count only unexpected answers as errors.
    results.push(ok, { ...not, non2xx: 0 });
    notes.push(`${name}${label} (${Math.round(bytes / 1024)} KB): 200 ${ok.cpuUs.toFixed(0)} µs CPU/req, 304 ${not.cpuUs.toFixed(0)} µs (${Math.round((100 * not.cpuUs) / ok.cpuUs)}%)`);
  }
  // Render latency: one client at a time, so p50 is the time to build and send the feed, not queueing.
  const feed = await autocannon({ duration, connections: 1, url: `${origin}${rest}/events.ics` });
  results.push({ name: `GET /events.ics (1,000 events), 1 connection${label}`, p50: feed.latency.p50, p99: feed.latency.p99, rps: feed.requests.average, errors: feed.errors, non2xx: feed.non2xx });
  return { results, notes };
}
