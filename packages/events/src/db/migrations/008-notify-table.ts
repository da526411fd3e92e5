import { sql, type Migration } from 'kysely';
import type { DbKind } from '../connection.ts';
import { CHANGE_CHANNEL } from '../change-signal.ts';

/**
 * Schema version 8: change notifications name their table, so an instance can tell a user or password change (its
 * cache of verified credentials must go) from a calendar write (which leaves it alone). A login bucket reaching the
 * attempt limit notifies too, so instances that skip reading the counts for known credentials learn of it at once.
 * SQLite needs nothing: its `data_version` pragma moves on any commit from another connection.
 */
/** The login attempt limit this migration notifies at (a check in user/login-attempts.ts keeps the two equal). */
export const NOTIFIED_ATTEMPTS = 50;

export function notifyTableMigration(kind: DbKind): Migration {
  return {
    async up(db) {
      if (kind !== 'postgres') return;
      await sql
        .raw(
          `create or replace function events_notify_change() returns trigger language plpgsql as $$
        begin perform pg_notify('${CHANGE_CHANNEL}', TG_TABLE_NAME); return null; end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger login_attempts_notify_limit after insert or update on login_attempts
        for each row when (new.attempts >= ${NOTIFIED_ATTEMPTS}) execute function events_notify_change()`,
        )
        .execute(db);
    },
  };
}
