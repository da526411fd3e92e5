import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from './connection.ts';
import { retryWhileBusy } from './sqlite-writes.ts';

/** Ids of the users table, which a fresh store has empty. */
const userIds = async (store: Store) =>
  (await store.db.selectFrom('users').select('id').orderBy('id').execute()).map((r) => r.id);
const insertUser = (login: string) =>
  sql`insert into users (login, display_name, email, role, created_gmt) values (${login}, ${login}, ${`${login}@x.test`}, 'subscriber', '2026-01-01 00:00:00')`;

describe('SQLite read handle beside the writer', () => {
  let dir: string;
  let store: Store;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'events-read-handle-'));
    store = await openStore(`sqlite:${join(dir, 'events.sqlite')}`);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers a read while a write transaction is open, with the last commit and not the open transaction', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let inside!: () => void;
    const began = new Promise<void>((r) => {
      inside = r;
    });
    const write = retryWhileBusy(() =>
      store.db.transaction().execute(async (trx) => {
        await insertUser('pending').execute(trx);
        inside();
        await gate;
      }),
    );
    await began;
    expect(await userIds(store)).toEqual([]);
    release();
    await write;
    // The commit is seen by the very next read, on the other handle.
    expect(await userIds(store)).toHaveLength(1);
  });

  it('runs a write outside a transaction only after the open transaction ends', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let inside!: () => void;
    const began = new Promise<void>((r) => {
      inside = r;
    });
    const tx = retryWhileBusy(() =>
      store.db.transaction().execute(async (trx) => {
        inside();
        await gate;
        await insertUser('first').execute(trx);
        order.push('transaction');
      }),
    );
    await began;
    const lone = insertUser('second')
      .execute(store.db)
      .then(() => order.push('lone'));
    await new Promise((r) => setTimeout(r, 20));
    expect(order).toEqual([]);
    release();
    await Promise.all([tx, lone]);
    expect(order).toEqual(['transaction', 'lone']);
    expect(await userIds(store)).toHaveLength(2);
  });

  it('rolls a failed transaction back and frees the writer for the next one', async () => {
    await expect(
      retryWhileBusy(() =>
        store.db.transaction().execute(async (trx) => {
          await insertUser('gone').execute(trx);
          throw new Error('abort');
        }),
      ),
    ).rejects.toThrow('abort');
    await retryWhileBusy(() => store.db.transaction().execute((trx) => insertUser('kept').execute(trx)));
    expect(await store.db.selectFrom('users').select('login').execute()).toEqual([{ login: 'kept' }]);
  });

  it('sends INSERT … RETURNING to the writer (better-sqlite3 calls it a reader)', async () => {
    const row = await store.db
      .insertInto('users')
      .values({
        login: 'r',
        display_name: 'r',
        email: 'r@x.test',
        role: 'subscriber',
        created_gmt: '2026-01-01 00:00:00',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await userIds(store)).toEqual([row.id]);
  });

  it('moves the change signal when this process commits', async () => {
    const before = store.changes.read();
    await insertUser('signal').execute(store.db);
    expect(store.changes.read()).not.toBe(before);
  });
});
