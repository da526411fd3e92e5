/**
 * A frozen worker (SIGSTOP) behind a live gateway, both real `news` processes: every request gets its 503 within
 * one deadline however many wait for the 16 pooled connections, and the gateway serves again at once after SIGCONT.
 */
import { describe, expect, it } from 'vitest';
import { post } from './gateway-harness.ts';
import { useProcessStack } from './process-stack.ts';

const VERSION = 'fixture-frozen';
const DEADLINE_MS = 2000;
// Deadline plus scheduling slack: measured 2.16 s for the slowest answer; a busy 2-core CI machine adds up to ~1 s.
const ANSWER_WITHIN_MS = DEADLINE_MS + 2_000;
const CLIENTS = 100;

const stack = useProcessStack(VERSION, {
  GATEWAY_WORKER_TIMEOUT_MS: String(DEADLINE_MS),
  GATEWAY_WORKER_CONNECTIONS: '16',
});

const V1_COUNT = { path: '/api/v1/count', body: { query: 'alpha', index: 'news' } };
const V2_COUNT = { path: '/api/v2/count', body: { query: 'alpha beta', index: 'news' } };

async function timed(call: { path: string; body: unknown }) {
  const t0 = performance.now();
  const res = await post(`${stack().gatewayUrl}${call.path}`, call.body);
  return { ...res, ms: performance.now() - t0 };
}

describe('gateway with a frozen worker', () => {
  it(`answers ${CLIENTS} concurrent v1 and v2 requests 503 with Retry-After within the deadline, and recovers within 1 s of SIGCONT`, async () => {
    const before = await timed(V1_COUNT);
    expect(before.status).toBe(200);
    expect((await timed(V2_COUNT)).status).toBe(200);

    stack().worker.child.kill('SIGSTOP');
    let answers: Awaited<ReturnType<typeof timed>>[];
    try {
      answers = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => timed(i % 2 === 0 ? V1_COUNT : V2_COUNT)));
    } finally {
      stack().worker.child.kill('SIGCONT');
    }
    const continued = performance.now();

    for (const a of answers) {
      expect(a.status).toBe(503);
      expect(a.headers.get('retry-after')).toBe('1');
      expect(['worker_unavailable', 'release_unavailable']).toContain(a.body.code);
      expect(a.body.detail).toMatch(/try again shortly|retry shortly|not confirmed/);
    }
    const slowest = Math.max(...answers.map((a) => a.ms));
    expect(slowest).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
    expect(slowest).toBeLessThanOrEqual(ANSWER_WITHIN_MS);

    // Recovery: sequential probes until the first 200, which must come within 1 s of SIGCONT.
    let firstOk = Infinity;
    while (performance.now() - continued < 5000) {
      const r = await timed(V1_COUNT);
      if (r.status === 200) {
        firstOk = performance.now() - continued;
        break;
      }
      await new Promise((res) => setTimeout(res, 20));
    }
    expect(firstOk).toBeLessThanOrEqual(1000);
    // And no stuck state behind it: a concurrent burst is served in full, with the same count as before.
    const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => timed(i % 2 === 0 ? V1_COUNT : V2_COUNT)));
    expect(burst.map((b) => b.status)).toEqual(burst.map(() => 200));
    expect(burst[0]!.body.count).toBe(before.body.count);
  });
});
