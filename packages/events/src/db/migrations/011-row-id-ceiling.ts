import type { Migration } from 'kysely';
import { sql } from 'kysely';
import type { DbKind } from '../connection.ts';

/** Tables whose ids a request can name (migration 001's id columns). */
const ID_TABLES = ['posts', 'terms', 'users', 'app_passwords'] as const;

/**
 * Schema version 11: no row gets id 2^31−1 (`MAX_ROW_ID`, http/row-id.ts), the value ids past the `integer` range
 * are clamped to at the edge, so such ids answer as missing ones. PostgreSQL's sequences stop one below; SQLite's
 * 64-bit rowids are refused from there on, so both stores hold the same range.
 */
export function rowIdCeilingMigration(kind: DbKind): Migration {
  return {
    async up(db) {
      for (const table of ID_TABLES) {
        if (kind === 'postgres') await sql.raw(`alter sequence ${table}_id_seq maxvalue 2147483646`).execute(db);
        else {
          await sql
            .raw(
              `create trigger ${table}_id_ceiling after insert on ${table} when new.id >= 2147483647
            begin select raise(abort, '${table} ids exhausted: the highest id is 2147483646'); end`,
            )
            .execute(db);
        }
      }
    },
  };
}
