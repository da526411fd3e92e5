import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import pg from 'pg';
import { ConnectionLosses, isDatabaseUnavailable, OUTAGE_WINDOW_MS } from './unavailable.ts';

const PG_URL = process.env.EVENTS_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A loopback port nothing listens on. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

describe('isDatabaseUnavailable', () => {
  it('recognises a refused connection and a terminated backend, not a bad query', async () => {
    const refused = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${await closedPort()}/postgres` });
    const err = await refused.connect().catch((e: unknown) => e);
    expect(isDatabaseUnavailable(err)).toBe(true);

    const victim = new pg.Client({ connectionString: PG_URL });
    victim.on('error', () => {});
    await victim.connect();
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const bad = await victim.query('select * from no_such_table_here').catch((e: unknown) => e);
      expect(isDatabaseUnavailable(bad)).toBe(false);
      const { rows } = await victim.query<{ pid: number }>('select pg_backend_pid() as pid');
      const running = victim.query('select pg_sleep(5)').catch((e: unknown) => e);
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      expect(isDatabaseUnavailable(await running)).toBe(true);
    } finally {
      await admin.end();
      await victim.end().catch(() => {});
    }
  });

  it('follows a cause and an AggregateError whose every error is an outage', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(new Error('Connection failed', { cause: refused }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('a', { cause: new Error('b', { cause: refused }) }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([refused, refused], 'all addresses refused'))).toBe(true);
    const syntax = Object.assign(new Error('syntax error'), { code: '42601' });
    expect(isDatabaseUnavailable(new AggregateError([refused, syntax]))).toBe(false);
    expect(isDatabaseUnavailable(new AggregateError([]))).toBe(false);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: syntax }))).toBe(false);
    // A cause cycle ends at the depth bound.
    const a = new Error('a') as Error & { cause?: unknown };
    a.cause = a;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });

  it("recognises Node's codes for a socket the server closed and the driver's protocol and read-timeout errors", () => {
    for (const code of ['ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END', 'ERR_SOCKET_CLOSED', 'ECONNABORTED'])
      expect(isDatabaseUnavailable(Object.assign(new Error(code), { code }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Query read timeout'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Received unexpected commandComplete message from backend.'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Received a thing'))).toBe(false);
  });

  it('ignores values that are not errors', () => {
    for (const v of [null, undefined, 'ECONNREFUSED', 42, { code: 23505 }, { code: '23505' }])
      expect(isDatabaseUnavailable(v)).toBe(false);
  });
});

describe('isDatabaseUnavailable on SQLite', () => {
  it('maps every busy and locked code, extended ones included, and nothing else', () => {
    for (const code of [
      'SQLITE_BUSY',
      'SQLITE_BUSY_SNAPSHOT',
      'SQLITE_BUSY_RECOVERY',
      'SQLITE_BUSY_TIMEOUT',
      'SQLITE_LOCKED',
      'SQLITE_LOCKED_SHAREDCACHE',
    ]) {
      expect(isDatabaseUnavailable({ code })).toBe(true);
    }
    for (const code of ['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', 'SQLITE_BUSYX', 'SQLITE_READONLY'])
      expect(isDatabaseUnavailable({ code })).toBe(false);
  });
});

describe('ConnectionLosses', () => {
  it('explains any error for the window after a lost connection, and only recognised ones otherwise', () => {
    let now = 1_000_000;
    const losses = new ConnectionLosses(() => now);
    const odd = new Error('an error no list foresaw');
    expect(losses.explains(odd)).toBe(false);
    expect(losses.explains(Object.assign(new Error('x'), { code: '57P01' }))).toBe(true);
    losses.lost();
    expect(losses.explains(odd)).toBe(true);
    now += OUTAGE_WINDOW_MS;
    expect(losses.explains(odd), 'at the window edge').toBe(true);
    now += 1;
    expect(losses.explains(odd), 'past the window').toBe(false);
  });

  it('is told by a real pool when the server ends its connections', async () => {
    const { openStore } = await import('./connection.ts');
    const store = await openStore(PG_URL);
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    try {
      const odd = new Error('an error no list foresaw');
      expect(store.isUnavailable(odd)).toBe(false);
      // A query in progress on a pool connection whose backend is terminated.
      const running = store.db
        .selectNoFrom((eb) => eb.fn<number>('pg_sleep', [eb.val(5)]).as('s'))
        .execute()
        .catch((e: unknown) => e);
      // Terminated once it runs (a loaded machine may take a while to connect and send it).
      for (let n = 0; n === 0;) {
        await new Promise((r) => setTimeout(r, 20));
        ({ rowCount: n } = (await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where query like 'select pg_sleep%' and pid <> pg_backend_pid()",
        )) as { rowCount: number });
      }
      expect(store.isUnavailable(await running)).toBe(true);
      expect(store.isUnavailable(odd), 'within the window after the loss').toBe(true);
    } finally {
      await admin.end();
      await store.close();
    }
  });
});
