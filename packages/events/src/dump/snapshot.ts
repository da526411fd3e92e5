import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { DumpTable } from './dump-format.ts';
import { ID_TABLES, orderBy } from './dump-format.ts';

/** One consistent read of a whole store: every table as it was at one instant, while the service keeps writing. */
export interface Snapshot {
  readonly kind: 'sqlite' | 'postgres';
  schema(): Promise<string>;
  sequences(): Promise<Record<string, number>>;
  rows(table: DumpTable): AsyncIterable<Record<string, unknown>>;
  close(): Promise<void>;
}

const FETCH_ROWS = 1000;

/**
 * SQLite: a read-only handle of its own in a read transaction. WAL gives it the last commit before its first read
 * and keeps that view to the end, without blocking the service's writer (nor being blocked by it).
 */
function sqliteSnapshot(path: string): Snapshot {
  const handle = new SQLite(path, { readonly: true, fileMustExist: true });
  handle.exec('begin');
  return {
    kind: 'sqlite',
    schema: async () =>
      (handle.prepare('select max(name) as name from kysely_migration').get() as { name: string }).name,
    async sequences() {
      const rows = handle.prepare('select name, seq from sqlite_sequence').all() as Array<{
        name: string;
        seq: number;
      }>;
      return Object.fromEntries(ID_TABLES.map((t) => [t, rows.find((r) => r.name === t)?.seq ?? 0]));
    },
    async *rows(table) {
      yield* handle
        .prepare(`select * from ${table} order by ${orderBy(table, 'sqlite')}`)
        .iterate() as IterableIterator<Record<string, unknown>>;
    },
    async close() {
      handle.exec('commit');
      handle.close();
    },
  };
}

/** PostgreSQL: one REPEATABLE READ, READ ONLY transaction; each table streams through a cursor. */
async function pgSnapshot(url: string): Promise<Snapshot> {
  // bigint columns (the subscriptions' millisecond times) as JSON numbers, as SQLite gives them: pg's default is a
  // string, which would make the two stores' dumps differ. They stay far below 2^53.
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
  };
  const client = new pg.Client({ connectionString: url, types });
  await client.connect();
  await client.query('begin isolation level repeatable read read only');
  return {
    kind: 'postgres',
    schema: async () =>
      (await client.query<{ name: string }>('select max(name) as name from kysely_migration')).rows[0]!.name,
    async sequences() {
      const out: Record<string, number> = {};
      for (const t of ID_TABLES) {
        const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
          `select last_value, is_called from ${t}_id_seq`,
        );
        out[t] = rows[0]!.is_called ? Number(rows[0]!.last_value) : Number(rows[0]!.last_value) - 1;
      }
      return out;
    },
    async *rows(table) {
      await client.query(
        `declare dump_rows no scroll cursor for select * from ${table} order by ${orderBy(table, 'postgres')}`,
      );
      try {
        for (;;) {
          const { rows } = await client.query<Record<string, unknown>>(`fetch ${FETCH_ROWS} from dump_rows`);
          yield* rows;
          if (rows.length < FETCH_ROWS) break;
        }
      } finally {
        await client.query('close dump_rows');
      }
    },
    async close() {
      await client.query('commit').catch(() => undefined);
      await client.end();
    },
  };
}

/** A snapshot of the store at `url` (`sqlite:PATH` or `postgres://…`, as config/storeUrl gives it). */
export const openSnapshot = (url: string): Promise<Snapshot> =>
  url.startsWith('sqlite:') ? Promise.resolve(sqliteSnapshot(url.slice('sqlite:'.length))) : pgSnapshot(url);
