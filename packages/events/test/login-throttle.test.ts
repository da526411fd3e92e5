import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/db/index.ts';
import { userService } from '../src/user/index.ts';
import { STORES, PASSWORD, startService, startSibling, type Service, type TestResponse } from './support/harness.ts';

// Issue 16 item 5: the login limit holds against parallel bursts and across instances (policy: events/README.md).
const LIMIT = 50;

describe.each(STORES)('login throttle ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());
  // Each test starts in a fresh counting minute.
  const nextMinute = () => {
    svc.clock.now += 60_000;
  };
  const guess = (send: Service['request'], login: string, password: string) =>
    send('GET', '/events', { as: { login, password } });
  const tally = (rs: TestResponse[]) => {
    const out: Record<number, number> = {};
    for (const r of rs) out[r.status] = (out[r.status] ?? 0) + 1;
    return out;
  };
  const expectRefused = (r: TestResponse) => {
    expect(r.status).toBe(429);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(r.body).toEqual({
      code: 'rest_too_many_attempts',
      message: 'Too many failed login attempts. Try again later.',
      data: { status: 429 },
    });
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
    await Promise.race(
      first.map(async (p) => {
        if ((await p).status !== 429) await new Promise(() => {});
      }),
    );
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
      const rs = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          guess(i % 2 ? sibling.request : svc.request, 'contributor', `wrong-${i}`),
        ),
      );
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
  // A known credential is served from memory (no query); these check that memory never outlives what it stands for.
  // PostgreSQL instances learn of changes by notification (milliseconds after the commit), SQLite on the next request.
  const eventually = factory.name === 'postgres' ? 2000 : 0;
  const statusSoon = async (send: () => Promise<TestResponse>, status: number) => {
    if (eventually === 0) expect((await send()).status).toBe(status);
    else await expect.poll(async () => (await send()).status, { timeout: eventually }).toBe(status);
  };

  it('refuses a credential known to this instance once failures on another instance reach the limit', async () => {
    const sibling = await startSibling(svc);
    try {
      nextMinute();
      for (let i = 0; i < 2; i++) expect((await guess(svc.request, 'subscriber', PASSWORD)).status).toBe(200);
      const rs = await Promise.all(
        Array.from({ length: 60 }, (_, i) => guess(sibling.request, 'subscriber', `wrong-${i}`)),
      );
      expect(tally(rs)[429]).toBeGreaterThan(0);
      await statusSoon(() => guess(svc.request, 'subscriber', PASSWORD), 429);
      nextMinute();
      expect((await guess(svc.request, 'subscriber', PASSWORD)).status).toBe(200);
    } finally {
      await sibling.close();
    }
  });

  it('stops a known credential when another process removes its user or changes its role', async () => {
    const other = await openStore(svc.dbUrl);
    const users = userService(other.db);
    const as = { login: 'leaver', password: 'leaver-password-1' };
    const create = () => svc.request('POST', '/tags', { as, form: { name: `tag-${Math.random()}` } });
    try {
      await users.add(as.login, 'editor', { appPassword: as.password });
      nextMinute();
      for (let i = 0; i < 2; i++) expect((await create()).status).toBe(201);
      await users.setRole(as.login, 'subscriber');
      await statusSoon(create, 403);
      await users.remove(as.login);
      await statusSoon(() => svc.get('/events', { as }), 401);
    } finally {
      await other.close();
    }
  });
});
