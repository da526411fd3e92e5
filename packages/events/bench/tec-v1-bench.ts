// The tec/v1 rows of bench:events (issue 25): a list of 10 and GET by id through `tec/v1`, each measured right after
// the same request through `tribe/events/v1` on the same server and data (target: tec/v1 within 10% of it).
import autocannon from 'autocannon';
import { EEA_SENTENCE } from '../src/tec-v1/gate.ts';

export interface PairResult {
  name: string;
  p50: number;
  p99: number;
  rps: number;
  errors: number;
  non2xx: number;
}

const TEC_HEADERS = { 'x-tec-eea': EEA_SENTENCE };

async function run(
  name: string,
  origin: string,
  paths: readonly string[],
  headers: Record<string, string>,
  seconds: number,
): Promise<PairResult> {
  let i = 0;
  const r = await autocannon({
    duration: seconds,
    connections: 10,
    url: origin,
    requests: [{ method: 'GET', headers, setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }],
  });
  return { name, p50: r.latency.p50, p99: r.latency.p99, rps: r.requests.average, errors: r.errors, non2xx: r.non2xx };
}

/**
 * `windows` are month windows as `start_date=…&end_date=…` query strings; `ids` the event ids to rotate over. Every
 * path is read once through both namespaces first, so both start from the same warm item cache.
 */
export async function benchTecPairs(
  origin: string,
  windows: readonly string[],
  ids: readonly number[],
  label: string,
  seconds: number,
): Promise<PairResult[]> {
  const tribeLists = windows.map((w) => `/wp-json/tribe/events/v1/events?per_page=10&${w}`);
  const tecLists = windows.map((w) => `/wp-json/tec/v1/events?per_page=10&${w}`);
  const sample = Array.from({ length: 2000 }, (_, k) => ids[(k * 7919) % ids.length]!);
  const tribeIds = sample.map((id) => `/wp-json/tribe/events/v1/events/${id}`);
  const tecIds = sample.map((id) => `/wp-json/tec/v1/events/${id}`);
  for (const p of [...tribeLists, ...tecLists, ...tribeIds, ...tecIds]) {
    const res = await fetch(`${origin}${p}`, { headers: p.includes('/tec/v1/') ? TEC_HEADERS : {} });
    if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
    await res.arrayBuffer();
  }
  return [
    await run(`tribe/events/v1 GET /events?per_page=10 + month window${label}`, origin, tribeLists, {}, seconds),
    await run(`tec/v1 GET /events?per_page=10 + month window${label}`, origin, tecLists, TEC_HEADERS, seconds),
    await run(`tribe/events/v1 GET /events/{id}${label}`, origin, tribeIds, {}, seconds),
    await run(`tec/v1 GET /events/{id}${label}`, origin, tecIds, TEC_HEADERS, seconds),
  ];
}
