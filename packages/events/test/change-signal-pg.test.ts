import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { parseLsn, pgChangeSignal, type ChangeSignal } from '../src/db/change-signal.ts';
import { PG_ADMIN_URL } from './support/harness.ts';

// Every write request asks the listening connection for a write token; many arrive at once. pg runs one query at a
// time per client and warns (pg 8) or refuses (pg 9) a query sent while another is running.
describe('PostgreSQL change signal: write tokens under concurrency', () => {
  let signal: ChangeSignal;
  let other: pg.Client;
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);
  beforeAll(async () => {
    signal = await pgChangeSignal(PG_ADMIN_URL);
    other = new pg.Client({ connectionString: PG_ADMIN_URL });
    await other.connect();
    process.on('warning', onWarning);
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await other.end();
    await signal.close();
  });

  it('answers 200 concurrent token requests one query at a time, each at or past the WAL position before it', async () => {
    await other.query('create temporary table t (x int)');
    const before = async () =>
      parseLsn((await other.query<{ lsn: string }>('select pg_current_wal_insert_lsn()::text as lsn')).rows[0]!.lsn);
    for (let round = 0; round < 4; round++) {
      // A commit on another connection moves the WAL; every token asked for after it must be at or past it.
      await other.query('insert into t values (1)');
      const floor = await before();
      const tokens = await Promise.all(Array.from({ length: 50 }, () => signal.writeToken()));
      for (const t of tokens) {
        expect(t).toBeDefined();
        expect(parseLsn(t!)).toBeGreaterThanOrEqual(floor);
      }
    }
    // Let a pending warning reach the listener before looking.
    await new Promise((r) => setImmediate(r));
    expect(warnings.filter((w) => w.includes('already executing a query'))).toEqual([]);
  });
});
