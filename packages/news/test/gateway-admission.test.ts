/**
 * Cost-based admission through real `news` processes (issue 23 item 10): a worker frozen by SIGSTOP holds
 * expensive calls in flight, so budgets and lanes are observed by what the gateway answers and in which order,
 * not by wall-clock thresholds. Clients are told apart by X-Forwarded-For from the trusted loopback proxy.
 */
import { describe, expect, it } from 'vitest';
import type { AnyJson } from './gateway-harness.ts';
import { useProcessStack } from './process-stack.ts';

const VERSION = 'fixture-admission';
const PER_CLIENT = 2;
// Long enough that nothing times out while the worker is frozen; each test continues it well before.
const DEADLINE_MS = 20_000;
// Generous: admission runs within a millisecond of the body arriving; this only orders sends on a busy machine.
const SETTLE_MS = 400;

const stack = useProcessStack(VERSION, {
  GATEWAY_WORKER_TIMEOUT_MS: String(DEADLINE_MS),
  GATEWAY_EXPENSIVE_PER_CLIENT: String(PER_CLIENT),
  GATEWAY_EXPENSIVE_IN_FLIGHT: '1',
  GATEWAY_TRUST_PROXY: '127.0.0.1,::1',
});

interface Answer {
  readonly status: number;
  readonly body: AnyJson;
  readonly headers: Headers;
  readonly label: string;
}

/** POSTs as client `ip`; `done` records the order answers arrive in. */
async function call(label: string, ip: string, path: string, body: unknown, done: string[] = []): Promise<Answer> {
  const res = await fetch(`${stack().gatewayUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  done.push(label);
  return { status: res.status, body: JSON.parse(text) as AnyJson, headers: res.headers, label };
}

const settle = () => new Promise((r) => setTimeout(r, SETTLE_MS));
const TIMELINE = ['/api/v2/timeline', { query: 'alpha', index: 'news' }] as const;
const ESTIMATE = ['/api/v2/estimate', { query: 'alpha', index: 'news' }] as const;
const INSENSITIVE_COUNT = ['/api/v2/count', { query: 'ALPHA', index: 'news', case: 'insensitive' }] as const;
const WHOLE_WORD_FIND = ['/api/v2/find', { query: 'alpha', index: 'news', whole_word: true }] as const;
const CHEAP_COUNT = ['/api/v1/count', { query: 'alpha', index: 'news' }] as const;

async function frozen<T>(run: () => Promise<T>): Promise<T> {
  // Confirm the release binding first, so v2 calls under test do not also wait for the identity check.
  expect((await call('warm', '192.0.2.1', ...CHEAP_COUNT)).status).toBe(200);
  stack().worker.child.kill('SIGSTOP');
  try {
    return await run();
  } finally {
    stack().worker.child.kill('SIGCONT');
  }
}

describe('cost-based admission', () => {
  it(`admits ${PER_CLIENT} expensive calls of one client and answers the next 429 with Retry-After; other clients are unaffected`, async () => {
    let held: Promise<Answer>[] = [];
    let other: Promise<Answer> | undefined;
    const refused = await frozen(async () => {
      held = [call('a1', '203.0.113.1', ...TIMELINE), call('a2', '203.0.113.1', ...INSENSITIVE_COUNT)];
      await settle();
      const third = await call('a3', '203.0.113.1', ...ESTIMATE);
      other = call('b1', '198.51.100.7', ...WHOLE_WORD_FIND);
      await settle();
      return third;
    });
    expect([refused.status, refused.headers.get('retry-after')]).toEqual([429, '1']);
    expect(refused.body).toEqual({
      detail: expect.stringContaining(`already has ${PER_CLIENT} expensive calls`),
      code: 'rate_limited',
      limit: PER_CLIENT,
    });
    // The held ones and the other client's, queued while the worker was frozen, all answer once it runs again.
    expect((await Promise.all([...held, other!])).map((a) => a.status)).toEqual([200, 200, 200]);
    // The budget came back with the answers: the same client gets its two again.
    expect(
      (await Promise.all([call('a4', '203.0.113.1', ...TIMELINE), call('a5', '203.0.113.1', ...ESTIMATE)])).map(
        (a) => a.status,
      ),
    ).toEqual([200, 200]);
  });

  it('never refuses or queues cheap calls, however many one client sends', async () => {
    const answers = await Promise.all(
      Array.from({ length: 3 * PER_CLIENT }, (_, i) => call(`c${i}`, '203.0.113.2', ...CHEAP_COUNT)),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
  });

  it('sends a cheap count to the worker before expensive calls waiting for the expensive lane', async () => {
    const done: string[] = [];
    const answers = await frozen(async () => {
      // The lane has one slot: the first expensive call takes it, the second waits in the gateway.
      const first = call('expensive-1', '203.0.113.3', ...TIMELINE, done);
      await settle();
      const second = call('expensive-2', '203.0.113.4', ...TIMELINE, done);
      await settle();
      const cheap = call('cheap', '203.0.113.5', ...CHEAP_COUNT, done);
      await settle();
      return [first, second, cheap];
    });
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([200, 200, 200]);
    // The cheap count went straight on and the waiting expensive call only after the first one ended. (The worker
    // slices v2 work, so the cheap count may even finish before the expensive call that reached it first.)
    expect(done.indexOf('cheap')).toBeLessThan(done.indexOf('expensive-2'));
    expect(done.indexOf('expensive-1')).toBeLessThan(done.indexOf('expensive-2'));
  });
});
