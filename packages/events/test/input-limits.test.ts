import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_LIMITS } from '../src/http/nested-params.ts';
import { STORES, startService, count, type Service } from './support/harness.ts';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const REST = '/wp-json/tribe/events/v1';

/** The largest form bodies within the limits: 1,000 variables, keys 64 levels deep or one 999-entry list. */
const WORST_BODIES = [
  `x[k]=1&${'x[]=1&'.repeat(INPUT_LIMITS.maxVars - 1)}`,
  Array.from({ length: INPUT_LIMITS.maxVars }, (_, i) => `d${i}${'[]'.repeat(INPUT_LIMITS.maxDepth)}=1`).join('&'),
  Array.from(
    { length: INPUT_LIMITS.maxVars },
    (_, i) => `k${i}${`[${'s'.repeat(13)}]`.repeat(INPUT_LIMITS.maxDepth)}=${'%41'.repeat(15)}`,
  ).join('&'),
];

describe.each(STORES)('form and query input limits ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());

  const expectLimit = (
    res: { status: number; body: { code: string; data: Record<string, unknown> } },
    limit: string,
  ) => {
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_bad_request');
    expect(res.body.data).toMatchObject({ status: 400, limit });
  };

  it('answers a form body of more than 1,000 variables with 400 max_input_vars, even anonymously, and writes nothing', async () => {
    const before = await count(svc, 'posts');
    const body = `title=T&start_date=2018-02-01&end_date=2018-02-02&${'x[]=1&'.repeat(1000)}`;
    expectLimit(await svc.request('POST', '/events', { body, headers: FORM }), 'max_input_vars');
    expectLimit(await svc.request('POST', '/events', { body, headers: FORM, as: 'administrator' }), 'max_input_vars');
    // Refused before the credentials are even checked (a password hash is the expensive part of a request).
    expectLimit(
      await svc.request('POST', '/events', { body, headers: FORM, as: { login: 'administrator', password: 'wrong' } }),
      'max_input_vars',
    );
    expect(await count(svc, 'posts')).toBe(before);
  });

  it('answers the reported 240 KB freeze body (40,000 appends) with 400 at once', async () => {
    const body = `x[k]=1&${'x[]=1&'.repeat(40_000)}`;
    expectLimit(await svc.request('POST', '/events', { body, headers: FORM }), 'max_input_vars');
  });

  it('answers form nesting 65 and 10,000 levels deep with 400 max_input_nesting_level', async () => {
    for (const depth of [65, 10_000]) {
      const body = `title=T&venue${'[a]'.repeat(depth)}=1`;
      expectLimit(
        await svc.request('POST', '/events', { body, headers: FORM, as: 'administrator' }),
        'max_input_nesting_level',
      );
    }
  });

  it('applies the same limits to query strings', async () => {
    expectLimit(await svc.request('GET', `${REST}/events?${'categories[]=1&'.repeat(1001)}`), 'max_input_vars');
    expectLimit(await svc.request('GET', `${REST}/events?search${'[a]'.repeat(65)}=x`), 'max_input_nesting_level');
    const ok = await svc.request('GET', `${REST}/events?search${'[a]'.repeat(64)}=x`);
    expect(ok.status).toBe(400);
    expect(ok.body.code).toBe('rest_invalid_param');
  });

  it('accepts the largest bodies within the limits (then validates them as usual)', async () => {
    for (const body of WORST_BODIES) {
      const res = await svc.request('POST', '/events', { body, headers: FORM });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_missing_callback_param');
    }
  });
});

/** Node code for a separate client process: POSTs the bodies it reads on stdin all at once, prints the statuses. */
const FLOOD_CLIENT = `
let input = '';
process.stdin.on('data', (c) => { input += c; }).on('end', async () => {
  const { url, bodies } = JSON.parse(input);
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  const statuses = await Promise.all(bodies.map((body) => fetch(url, { method: 'POST', body, headers }).then((r) => r.status)));
  process.stdout.write(JSON.stringify(statuses));
});`;

/** Sends the bodies from another process, as remote clients would, so this process's event loop is the server's. */
function floodFromClient(url: string, bodies: readonly string[]): Promise<number[]> {
  const child = spawn(process.execPath, ['-e', FLOOD_CLIENT], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  child.stdin.end(JSON.stringify({ url, bodies }));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as number[]) : reject(new Error(`flood client exited ${code}`)),
    );
  });
}

const percentile = (xs: readonly number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(p * (xs.length - 1))]!;

describe('a request stays fast while the largest allowed bodies arrive', () => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(STORES[0]!);
  });
  afterAll(() => svc.close());

  /** Latencies of sequential cheap GETs until `until` settles (at least `min` of them). */
  async function probe(until: Promise<unknown> | undefined, min: number): Promise<number[]> {
    let done = until === undefined;
    void until?.finally(() => {
      done = true;
    });
    const out: number[] = [];
    while (!done || out.length < min) {
      const t0 = performance.now();
      const res = await svc.request('GET', '/events/999999');
      out.push(performance.now() - t0);
      expect(res.status).toBe(404);
    }
    return out;
  }

  const bodies = Array.from({ length: 10 }, (_, i) => WORST_BODIES[i % WORST_BODIES.length]!);

  it('adds at most 100 ms to a concurrent request while 10 such bodies are parsed', async () => {
    const url = `${svc.base}${REST}/events`;
    // A warm-up round: the JIT compiles the parser on its first bodies, as in any long-running server.
    await floodFromClient(url, bodies);
    const baseline = percentile((await probe(undefined, 60)).slice(10), 0.95);
    const flood = floodFromClient(url, bodies);
    const during = await probe(flood, 5);
    expect(await flood).toEqual(bodies.map(() => 400));
    // The issue's bound is 100 ms over what the machine gives without the bodies. On a shared CI machine single probes
    // stall when the scheduler runs other processes, so the bound holds for the 95th percentile, and no probe may
    // wait as long as a whole-body parse did before (1.5 s for 10,000 appends).
    expect(percentile(during, 0.95)).toBeLessThanOrEqual(100 + baseline);
    expect(Math.max(...during)).toBeLessThan(1000);
  });
});
