import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import pg from 'pg';
import { isDatabaseUnavailable } from './unavailable.ts';

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
