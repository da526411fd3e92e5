import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, PASSWORD, startService, startSibling, type Service, type TestResponse } from './support/harness.ts';

// Issue 16 item 5: the login limit holds against parallel bursts and across instances (policy: events/README.md).
const LIMIT = 50;

describe.each(STORES)('login throttle ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => { svc = await startService(factory); });
  afterAll(() => svc.close());
  // Each test starts in a fresh counting minute.
  const nextMinute = () => { svc.clock.now += 60_000; };
  const guess = (send: Service['request'], login: string, password: string) => send('GET', '/events', { as: { login, password } });
  const tally = (rs: TestResponse[]) => {
    const out: Record<number, number> = {};
    for (const r of rs) out[r.status] = (out[r.status] ?? 0) + 1;
    return out;
  };
  const expectRefused = (r: TestResponse) => {
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.body).toEqual({ code: 'rest_too_many_attempts', message: 'Too many failed login attempts. Try again later.', data: { status: 429 } });
  };

  it('evaluates at most the limit of 300 parallel wrong guesses and refuses the rest with 429', async () => {
    nextMinute();
    const rs = await Promise.all(Array.from({ length: 300 }, (_, i) => guess(svc.request, 'author', `wrong-${i}`)));
    const t = tally(rs);
    expect((t[401] ?? 0) + (t[429] ?? 0)).toBe(300);
    expect(t[401]).toBeLessThanOrEqual(LIMIT);
    expect(t[429]).toBeGreaterThanOrEqual(300 - LIMIT);
    expectRefused(rs.find((r) => r.status === 429)!);
  });

  it('refuses a correct password sent inside a burst once the limit is reached', async () => {
    nextMinute();
    // The administrator's credential is known good to this instance already, the editor's is checked afresh.
    expect((await svc.get('/events', { as: 'administrator' })).status).toBe(200);
    const first = Array.from({ length: 60 }, (_, i) => guess(svc.request, 'administrator', `wrong-${i}`));
    // The limit is reached once any of them is refused; the checked ones are still in their slow-down then.
    await Promise.race(first.map(async (p) => { if ((await p).status !== 429) await new Promise(() => {}); }));
    const second = Array.from({ length: 60 }, (_, i) => {
      if (i === 20) return guess(svc.request, 'administrator', PASSWORD);
      if (i === 40) return guess(svc.request, 'editor', PASSWORD);
      return guess(svc.request, 'administrator', `again-${i}`);
    });
    const rs = await Promise.all([...first, ...second]);
    expectRefused(rs[80]!);
    expectRefused(rs[100]!);
    expect(tally(rs)[401]).toBeLessThanOrEqual(LIMIT);
    // After the minute the right password works again.
    nextMinute();
    expect((await svc.get('/events', { as: 'administrator' })).status).toBe(200);
  });

  // SQLite instances share the file and so the count as well; the multi-instance deployment is PostgreSQL's.
  it.runIf(factory.name === 'postgres')('shares the count between two instances on one database', async () => {
    const sibling = await startSibling(svc);
    try {
      nextMinute();
      const rs = await Promise.all(Array.from({ length: 200 }, (_, i) => guess(i % 2 ? sibling.request : svc.request, 'contributor', `wrong-${i}`)));
      const t = tally(rs);
      expect((t[401] ?? 0) + (t[429] ?? 0)).toBe(200);
      expect(t[401]).toBeLessThanOrEqual(LIMIT);
      // The limit is per login too: the right password from this address is refused on either instance.
      expectRefused(await guess(sibling.request, 'contributor', PASSWORD));
      expectRefused(await guess(svc.request, 'contributor', PASSWORD));
    } finally {
      await sibling.close();
    }
  });
});
