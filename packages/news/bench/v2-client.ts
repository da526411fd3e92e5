/** A one-connection client for the v2 benchmarks: sequential requests timed with hrtime. */
import { Pool } from 'undici';
import { pct } from './bench-support.ts';

export interface Client {
  post(path: string, body: string): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

/** One keep-alive connection, as a script paging a query would use. */
export function client(origin: string): Client {
  const pool = new Pool(origin, { connections: 1 });
  return {
    async post(path, body) {
      const res = await pool.request({ method: 'POST', path, body, headers: { 'content-type': 'application/json' } });
      return { status: res.statusCode, text: await res.body.text() };
    },
    close: () => pool.close(),
  };
}

/** Sequential requests, each timed with hrtime (the first `warmup` are not counted). */
export async function latency(
  c: Client,
  path: string,
  bodies: readonly string[],
  n: number,
  warmup = 20,
): Promise<{ p50: number; p99: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < n + warmup; i++) {
    const t0 = process.hrtime.bigint();
    const res = await c.post(path, bodies[i % bodies.length]!);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.text.slice(0, 200)}`);
    if (i >= warmup) {
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      bytes += res.text.length;
    }
  }
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p99: pct(times, 99), bytes: bytes / n };
}
