/**
 * The memory part of `npm run bench:search` (issue 27: "the worker's RSS grows by at most 256 MB while answering 16
 * concurrent heavy queries"): rounds of 16 concurrent heavy searches over HTTP, the worker's RSS sampled from /proc.
 */
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';

/** Frequent terms, ORs of wildcards, NEAR over frequent words, `*` phrases, a sampled query: each over all shards. */
export const HEAVY_QUERIES: readonly { query: string; case?: 'insensitive' }[] = [
  { query: 'the OR die' },
  { query: 'the AND und' },
  { query: 'said OR sagte OR in' },
  { query: 'econom* OR Wirtschaft* OR Regier* OR market*' },
  { query: 'trade* OR bank* OR Polit* OR price*' },
  { query: 'the NEAR/3 of' },
  { query: '"the * of" OR "die * der"' },
  { query: '(e OR n OR i OR s OR r) NOT Berlin' },
  { query: 'THE OR DIE', case: 'insensitive' },
  { query: 'a AND e AND i' },
  { query: 'Minister* OR Präsident* OR company OR year*' },
  { query: 'und NEAR/5 der' },
  { query: 'of OR to OR と' },
  { query: '"the * of" AND (oil OR bank*)', case: 'insensitive' },
  { query: 'pct OR mln OR billion' },
  { query: 'der OR das OR the NOT Trump' },
];

/** Resident set size of a process, in bytes (VmRSS of /proc/<pid>/status). */
export function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (m === null) throw new Error(`no VmRSS for process ${pid}`);
  return Number(m[1]) * 1024;
}

export interface MemoryRun {
  readonly baseline: number;
  readonly peak: number;
  readonly rounds: number;
  readonly requests: number;
  readonly statuses: Record<string, number>;
  readonly wallMs: number;
  /** The slowest request's latency in the concurrent rounds. */
  readonly slowestMs: number;
}

/**
 * One sequential pass of every query first (what a warm worker holds: lazily built tables, the shards' pages), its
 * RSS the baseline; then `rounds` rounds of all queries at once on 16 connections (each round a new seed, so no
 * answer cache serves them), the RSS sampled every 10 ms. Growth = peak − baseline.
 */
export async function concurrentSearchRss(url: string, pid: number, rounds = 3): Promise<MemoryRun> {
  const pool = new Pool(url, { connections: HEAVY_QUERIES.length });
  const statuses: Record<string, number> = {};
  const post = async (body: object, counted = true): Promise<number> => {
    const t0 = performance.now();
    const res = await pool.request({
      method: 'POST',
      path: '/api/v2/search',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    await res.body.text();
    if (counted) statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
    return performance.now() - t0;
  };
  try {
    for (const q of HEAVY_QUERIES) await post({ index: 'news', ...q, seed: 1_000 }, false);
    const baseline = rssBytes(pid);
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, rssBytes(pid))), 10);
    const t0 = performance.now();
    let slowestMs = 0;
    try {
      for (let round = 0; round < rounds; round++) {
        const times = await Promise.all(HEAVY_QUERIES.map((q) => post({ index: 'news', ...q, seed: round + 1 })));
        slowestMs = Math.max(slowestMs, ...times);
      }
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, rssBytes(pid));
    return {
      baseline,
      peak,
      rounds,
      requests: rounds * HEAVY_QUERIES.length,
      statuses,
      wallMs: performance.now() - t0,
      slowestMs,
    };
  } finally {
    await pool.close();
  }
}
