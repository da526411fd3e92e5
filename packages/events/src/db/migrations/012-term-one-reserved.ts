import type { Migration } from 'kysely';
import { sql } from 'kysely';
import type { DbKind } from '../connection.ts';

/**
 * Schema version 12: term id 1 stays free, as in WordPress, where it is the post category "Uncategorized" (not an
 * event category): `GET /categories/1` is then the plugin's 400, and the first category or tag gets id 2 like on a
 * fresh WordPress site, so ids in links and clients' fixtures match (issue 25). Only a store that never had a term is
 * changed; existing term ids are never renumbered.
 */
export function termOneReservedMigration(kind: DbKind): Migration {
  return {
    async up(db) {
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from terms`.execute(db);
      if (Number(rows[0]?.n ?? 0) > 0) return;
      if (kind === 'postgres') {
        const seq = await sql<{ is_called: boolean }>`select is_called from terms_id_seq`.execute(db);
        if (seq.rows[0]?.is_called === false) await sql`select setval('terms_id_seq', 1, true)`.execute(db);
        return;
      }
      const used = await sql<{ seq: number }>`select seq from sqlite_sequence where name = 'terms'`.execute(db);
      if ((used.rows[0]?.seq ?? 0) >= 1) return;
      await sql`delete from sqlite_sequence where name = 'terms'`.execute(db);
      await sql`insert into sqlite_sequence (name, seq) values ('terms', 1)`.execute(db);
    },
  };
}
