import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONFLICT_ATTEMPTS, openStore, type Store } from '../src/db/index.ts';
import { writeTransaction } from '../src/post/index.ts';
import { STORES } from './support/harness.ts';

// A transaction PostgreSQL rolls back to break a deadlock (40P01) did nothing, so writeTransaction runs it again.
const postgres = STORES.find((s) => s.name === 'postgres')!;

describe('writeTransaction on PostgreSQL', () => {
  let store: Store;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    const db = await postgres.create();
    dispose = db.dispose;
    store = await openStore(db.url);
    await sql`create table lock_probe (id integer primary key, runs integer not null)`.execute(store.db);
    await sql`insert into lock_probe values (1, 0), (2, 0)`.execute(store.db);
  });
  afterAll(async () => {
    await store.close();
    await dispose();
  });

  it('runs a transaction again when PostgreSQL breaks a deadlock with it, and both writes land', async () => {
    let runs = 0;
    let locked = 0;
    let bothLocked!: () => void;
    const barrier = new Promise<void>((resolve) => {
      bothLocked = resolve;
    });
    // Two writers lock the probe rows in opposite orders; on their first run each waits until the other holds a row.
    const writer = (a: number, b: number) =>
      writeTransaction(store.db, async (trx) => {
        const first = runs++ < 2;
        await sql`set local deadlock_timeout = '50ms'`.execute(trx);
        await sql`update lock_probe set runs = runs + 1 where id = ${a}`.execute(trx);
        if (first && ++locked === 2) bothLocked();
        if (first) await barrier;
        await sql`update lock_probe set runs = runs + 1 where id = ${b}`.execute(trx);
      });
    await Promise.all([writer(1, 2), writer(2, 1)]);
    // At least one run was rolled back and run again (a loaded machine once needed a fourth run); the rows below show
    // each writer's work landed exactly once.
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(runs).toBeLessThanOrEqual(2 * MAX_CONFLICT_ATTEMPTS);
    const rows = await sql<{ id: number; runs: number }>`select id, runs from lock_probe order by id`.execute(store.db);
    expect(rows.rows).toEqual([
      { id: 1, runs: 2 },
      { id: 2, runs: 2 },
    ]);
  });

  it(`gives up after ${MAX_CONFLICT_ATTEMPTS} runs that all conflict and passes the error on`, async () => {
    let runs = 0;
    const err = await writeTransaction(store.db, async (trx) => {
      runs++;
      // A real serialization failure each run: this transaction reads, another commits a change, this one writes.
      await sql`set transaction isolation level serializable`.execute(trx);
      await sql`select runs from lock_probe where id = 1`.execute(trx);
      await sql`update lock_probe set runs = runs + 1 where id = 1`.execute(store.db);
      await sql`update lock_probe set runs = runs + 1 where id = 1`.execute(trx);
    }).catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('40001');
    expect(runs).toBe(MAX_CONFLICT_ATTEMPTS);
  });
});
