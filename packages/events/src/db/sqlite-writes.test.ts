import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { beginImmediate, retryWhileBusy } from './sqlite-writes.ts';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

describe('beginImmediate', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('fails at once with SQLITE_BUSY while another connection holds the write lock, keeping the busy timeout', () => {
    dir = mkdtempSync(join(tmpdir(), 'events-begin-'));
    const [a, b] = [new SQLite(join(dir, 'x.sqlite')), new SQLite(join(dir, 'x.sqlite'))];
    a.pragma('journal_mode = WAL');
    b.pragma('busy_timeout = 5000');
    a.exec('begin immediate');
    const started = Date.now();
    expect(() => beginImmediate(b)).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(b.pragma('busy_timeout', { simple: true })).toBe(5000);
    a.exec('commit');
    beginImmediate(b);
    expect(b.inTransaction).toBe(true);
    b.exec('commit');
    a.close();
    b.close();
  });
});

describe('retryWhileBusy', () => {
  const noSleep = async () => {};

  it('runs again while busy and returns the first success', async () => {
    let tries = 0;
    const out = await retryWhileBusy(
      async () => {
        if (++tries < 4) throw busy();
        return 'done';
      },
      { timeoutMs: 1000, sleep: noSleep },
    );
    expect(out).toBe('done');
    expect(tries).toBe(4);
  });

  it('lets the busy error stand once the timeout has passed', async () => {
    let tries = 0;
    await expect(
      retryWhileBusy(
        async () => {
          tries++;
          throw busy();
        },
        { timeoutMs: 30, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) },
      ),
    ).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(tries).toBeGreaterThan(1);
  });

  it('never retries another error', async () => {
    let tries = 0;
    const unique = Object.assign(new Error('unique'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
    await expect(
      retryWhileBusy(
        async () => {
          tries++;
          throw unique;
        },
        { timeoutMs: 1000, sleep: noSleep },
      ),
    ).rejects.toBe(unique);
    expect(tries).toBe(1);
  });
});

describe('retryWhileBusy in a queue', () => {
  it('runs one write at a time in arrival order, and a write queued behind one that timed out gives up at once', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const first = retryWhileBusy(async () => {
      order.push('first');
      await held;
      return 1;
    });
    const second = retryWhileBusy(async () => {
      order.push('second');
      return 2;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual(['first']);
    release();
    expect(await Promise.all([first, second])).toEqual([1, 2]);

    const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    const tries = { spell: 0, behind: 0 };
    const spell = retryWhileBusy(
      async () => {
        tries.spell++;
        throw busy();
      },
      { timeoutMs: 50, sleep },
    );
    const behind = retryWhileBusy(
      async () => {
        tries.behind++;
        throw busy();
      },
      { timeoutMs: 50, sleep },
    );
    await expect(spell).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    await expect(behind).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(tries.spell).toBeGreaterThan(1);
    expect(tries.behind).toBe(1);
    // The lock free again: the next write runs.
    expect(await retryWhileBusy(async () => 'free', { timeoutMs: 50, sleep })).toBe('free');
  });
});
