import type { Migration } from 'kysely';
import { sql } from 'kysely';
import type { DbKind } from '../connection.ts';
import { CHANGE_CHANNEL } from '../change-signal.ts';

const TABLES = [
  'posts',
  'events',
  'venues',
  'organizers',
  'terms',
  'event_terms',
  'event_organizers',
  'users',
  'app_passwords',
];

/**
 * Schema version 4: on PostgreSQL every committed change to a calendar table notifies `events_changed`, so each
 * instance drops cached responses at once whichever instance (or operator) wrote. NOTIFY is transactional and one
 * transaction's notifications collapse into one. SQLite needs nothing: its `data_version` pragma says the same.
 */
export function changeNotifyMigration(kind: DbKind): Migration {
  return {
    async up(db) {
      if (kind !== 'postgres') return;
      await sql
        .raw(
          `create function events_notify_change() returns trigger language plpgsql as $$
        begin perform pg_notify('${CHANGE_CHANNEL}', ''); return null; end $$`,
        )
        .execute(db);
      for (const table of TABLES) {
        await sql
          .raw(
            `create trigger ${table}_notify_change after insert or update or delete or truncate on ${table}
          for each statement execute function events_notify_change()`,
          )
          .execute(db);
      }
    },
  };
}
