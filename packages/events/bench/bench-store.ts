import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const PG_ADMIN = process.env.EVENTS_BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A fresh store for one benchmark run: a temporary SQLite file, or a PostgreSQL database `NAME_PID` (EVENTS_BENCH_PG). */
export async function benchStore(
  kind: 'sqlite' | 'postgres',
  name: string,
): Promise<{ url: string; dispose: () => Promise<void> }> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `${name.replace(/_/g, '-')}-`));
    return {
      url: `sqlite:${join(dir, 'events.sqlite')}`,
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const db = `${name}_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`drop database if exists ${db}`);
  await admin.query(`create database ${db}`);
  await admin.end();
  return {
    url: PG_ADMIN.replace(/\/[^/]*$/, `/${db}`),
    dispose: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN });
      await c.connect();
      await c.query(`drop database if exists ${db} with (force)`);
      await c.end();
    },
  };
}
