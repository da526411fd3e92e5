import { describe, expect, it } from 'vitest';
import { basicAuth } from './auth.ts';
import { ApiError } from './errors.ts';
import type { Caller } from './route.ts';

const header = (login: string, pw: string) => `Basic ${Buffer.from(`${login}:${pw}`).toString('base64')}`;
const caller: Caller = { id: 1, login: 'ann', role: 'editor', can: () => true };
const authenticate = async (login: string, pw: string) => {
  if (login === 'ann' && pw === 'right') return caller;
  throw new ApiError('incorrect_password', 'The provided password is an invalid application password.');
};

describe('basicAuth', () => {
  it('is anonymous without a header and ignores other schemes', async () => {
    const resolve = basicAuth(authenticate, async () => {});
    expect(await resolve(undefined, 'ip', 0)).toBeNull();
    expect(await resolve('Bearer abc', 'ip', 0)).toBeNull();
    expect(await resolve(header('ann', 'right'), 'ip', 0)).toBe(caller);
  });

  it('slows a burst of failures from one address, then refuses it until the minute passes', async () => {
    const waits: number[] = [];
    const resolve = basicAuth(authenticate, async (ms) => { waits.push(ms); });
    for (let i = 0; i < 50; i++) await expect(resolve(header('ann', 'wrong'), '10.0.0.1', 1000)).rejects.toThrow(ApiError);
    expect(waits.slice(0, 3)).toEqual([250, 500, 1000]);
    expect(Math.max(...waits)).toBe(4000);
    await expect(resolve(header('ann', 'right'), '10.0.0.1', 2000)).rejects.toMatchObject({ code: 'rest_too_many_attempts', status: 429 });
    expect(await resolve(header('ann', 'right'), '10.0.0.2', 2000)).toBe(caller);
    expect(await resolve(header('ann', 'right'), '10.0.0.1', 62_000)).toBe(caller);
  });
});
