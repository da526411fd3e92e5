import { Type } from '@sinclair/typebox';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../db/index.ts';
import { attemptBuckets, storeAttemptCounter, userService } from '../user/index.ts';
import { createHttpApp } from './app.ts';
import { compileRoutes, endpoint } from './route.ts';

const basic = (login: string, pw: string) => `Basic ${Buffer.from(`${login}:${pw}`).toString('base64')}`;
const URL_ = '/wp-json/test/v1/things';

// Conditional re-polls through the real app: a route that counts its runs, Basic auth over a real SQLite store.
describe('createHttpApp: re-polls answered from remembered validators', () => {
  let store: Store;
  let runs = 0;
  let generation = { value: 0 };
  let app: ReturnType<typeof createHttpApp>;
  beforeEach(async () => {
    store = await openStore('sqlite::memory:');
    const users = userService(store.db);
    await users.add('ann', 'editor', { appPassword: 'right-password' });
    runs = 0;
    generation = { value: 0 };
    const routes = compileRoutes('test/v1', [
      {
        pattern: '/things',
        endpoints: [
          endpoint({
            methods: ['GET'],
            args: { schema: Type.Object({}) },
            handler: () => {
              runs++;
              return { body: { things: generation.value } };
            },
          }),
        ],
      },
    ]);
    app = createHttpApp({
      siteUrl: 'http://localhost',
      bodyLimitBytes: 1 << 20,
      routes,
      optionsReply: () => ({}),
      authenticate: { credentials: users, attempts: storeAttemptCounter(store.db), bucketsOf: attemptBuckets },
      clock: Date.now,
      logger: pino({ level: 'silent' }),
      generation,
      cacheTtlMs: 0,
      validatorTtlMs: 60_000,
    });
  });
  afterEach(async () => {
    await app.close();
    await store.close();
  });

  const get = (headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: URL_, headers });

  it('answers an anonymous re-poll 304 without running the route, until a write', async () => {
    const first = await get();
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    const again = await get({ 'if-none-match': etag });
    expect([again.statusCode, again.body, runs]).toEqual([304, '', 1]);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['content-type']).toBeUndefined();
    generation.value++;
    const changed = await get({ 'if-none-match': etag });
    expect([changed.statusCode, runs]).toEqual([200, 2]);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it("keeps a logged-in reader's validators apart and still checks their password first", async () => {
    const etag = (await get()).headers.etag as string;
    const ann = { authorization: basic('ann', 'right-password'), 'if-none-match': etag };
    // Same bytes, so a 304, but built: the anonymous reader's validators do not answer Ann.
    expect((await get(ann)).statusCode).toBe(304);
    expect(runs).toBe(2);
    expect((await get(ann)).statusCode).toBe(304);
    expect(runs).toBe(2);
    const wrong = await get({ authorization: basic('ann', 'wrong-password'), 'if-none-match': etag });
    expect(wrong.statusCode).toBe(401);
  });

  it('never answers a GET with a method override from remembered validators', async () => {
    const etag = (await get()).headers.etag as string;
    // The same URL, so the remembered tag would match: the override makes it a POST, which this route does not have.
    const override = await get({ 'x-http-method-override': 'POST', 'if-none-match': etag });
    expect(override.statusCode).toBe(404);
  });
});
