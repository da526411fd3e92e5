import { describe, expect, it } from 'vitest';
import { SharedBuilds } from './shared-builds.ts';

describe('SharedBuilds', () => {
  it('lets the first request build and hands its answer to those arriving meanwhile', async () => {
    const builds = new SharedBuilds<string>();
    const first = await builds.join('k', 1);
    if (!('own' in first) || !first.own) throw new Error('the first request builds');
    const waiter = builds.join('k', 1);
    first.own.settle('answer');
    expect(await waiter).toEqual({ shared: 'answer' });
    builds.end('k', first.own);
    const after = await builds.join('k', 1);
    expect('own' in after && after.own !== undefined).toBe(true);
  });

  it('never shares a build from an older write generation, nor registers beside it', async () => {
    const builds = new SharedBuilds<string>();
    const old = await builds.join('k', 1);
    expect(await builds.join('k', 2)).toEqual({ own: undefined });
    if ('own' in old && old.own) builds.end('k', old.own);
  });

  it('releases waiters without an answer when the build ends without one (an error, an uncacheable answer)', async () => {
    const builds = new SharedBuilds<string>();
    const first = await builds.join('k', 1);
    const waiter = builds.join('k', 1);
    if ('own' in first && first.own) builds.end('k', first.own);
    expect(await waiter).toEqual({ own: undefined });
    const next = await builds.join('k', 1);
    expect('own' in next && next.own !== undefined).toBe(true);
  });
});
