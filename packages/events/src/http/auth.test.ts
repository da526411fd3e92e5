import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../db/index.ts';
import { attemptBuckets, storeAttemptCounter, userService } from '../user/index.ts';
import { basicAuth, LOGIN_ATTEMPT_LIMIT, type LoginChecks } from './auth.ts';
import { ApiError } from './errors.ts';

const header = (login: string, pw: string) => `Basic ${Buffer.from(`${login}:${pw}`).toString('base64')}`;

describe('basicAuth over a real store', () => {
  let store: Store;
  let checks: LoginChecks;
  beforeEach(async () => {
    store = await openStore('sqlite::memory:');
    const users = userService(store.db);
    await users.add('ann', 'editor', { appPassword: 'right-password' });
    checks = { credentials: users, attempts: storeAttemptCounter(store.db), bucketsOf: attemptBuckets };
  });
  afterEach(() => store.close());

  it('is anonymous without a header and ignores other schemes', async () => {
    const resolve = basicAuth(checks, async () => {});
    expect(await resolve(undefined, 'ip', 0)).toBeNull();
    expect(await resolve('Bearer abc', 'ip', 0)).toBeNull();
    expect((await resolve(header('ann', 'right-password'), 'ip', 0))?.login).toBe('ann');
  });

  it('slows a burst of failures from one address, then refuses it with Retry-After until the minute passes', async () => {
    const waits: number[] = [];
    const resolve = basicAuth(checks, async (ms) => {
      waits.push(ms);
    });
    for (let i = 0; i < LOGIN_ATTEMPT_LIMIT; i++)
      await expect(resolve(header('bob', 'wrong'), '10.0.0.1', 1000)).rejects.toThrow(ApiError);
    expect(waits.slice(0, 3)).toEqual([250, 500, 1000]);
    expect(Math.max(...waits)).toBe(4000);
    await expect(resolve(header('ann', 'right-password'), '10.0.0.1', 2000)).rejects.toMatchObject({
      code: 'rest_too_many_attempts',
      status: 429,
      headers: { 'Retry-After': 58 },
    });
    expect((await resolve(header('ann', 'right-password'), '10.0.0.2', 2000))?.login).toBe('ann');
    expect((await resolve(header('ann', 'right-password'), '10.0.0.1', 62_000))?.login).toBe('ann');
  });

  it('counts per login across addresses, and a correct password takes its attempt back', async () => {
    const resolve = basicAuth(checks, async () => {});
    for (let i = 0; i < 200; i++)
      expect((await resolve(header('ann', 'right-password'), `10.1.0.${i % 3}`, 5000))?.login).toBe('ann');
    for (let i = 0; i < LOGIN_ATTEMPT_LIMIT; i++)
      await expect(resolve(header('Ann', 'guess'), `10.2.${i}.1`, 5000)).rejects.toThrow(ApiError);
    await expect(resolve(header('ann', 'right-password'), '10.3.0.1', 5000)).rejects.toMatchObject({
      code: 'rest_too_many_attempts',
    });
  });
});
