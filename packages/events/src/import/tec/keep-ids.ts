import { sql, type Kysely } from 'kysely';
import { isPostgres, type Database } from '../../db/index.ts';

type IdTable = 'posts' | 'terms' | 'users';

/** Whether the store holds no post and no term: only then are the source's ids kept. */
export async function isEmptyStore(db: Kysely<Database>): Promise<boolean> {
  for (const table of ['posts', 'terms'] as const) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(row.n) > 0) return false;
  }
  return true;
}

/**
 * Makes the store's next id of `table` be `id`, so the service's own create (all its rules) writes the row under the
 * source's id, as a restore keeps ids by setting the counters (dump/restore.ts). Only an id above every id stored
 * is claimed (items go in ascending id order): a SQLite counter never goes back below its highest row, and a lower
 * PostgreSQL counter would later collide. Returns whether the id was claimed; if not, the store assigns one.
 */
export async function claimNextId(db: Kysely<Database>, table: IdTable, id: number): Promise<boolean> {
  const { rows } = await sql<{ m: number | null }>`select max(id) as m from ${sql.table(table)}`.execute(db);
  const max = Number(rows[0]?.m ?? 0);
  if (id <= max) return false;
  if (isPostgres(db)) await sql`select setval(${`${table}_id_seq`}, ${id}, false)`.execute(db);
  else {
    await sql`delete from sqlite_sequence where name = ${table}`.execute(db);
    await sql`insert into sqlite_sequence (name, seq) values (${table}, ${id - 1})`.execute(db);
  }
  return true;
}
