import type { Migration } from 'kysely';
import { sql } from 'kysely';
import type { DbKind } from '../connection.ts';

/**
 * Schema version 8: recurring events in Events Calendar Pro's model. A series is its first event (a row in
 * `event_series` holding the rule) plus one event post per further occurrence, whose `events.parent_id` is the first
 * event and whose `event_occurrences` row remembers which start of the rule it stands for (its RECURRENCE-ID) and
 * whether it was edited on its own (then edits of the whole series leave it alone).
 */
export function recurrenceMigration(kind: DbKind): Migration {
  return {
    async up(db) {
      await db.schema
        .createTable('event_series')
        .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
        // The stored rule's format (recurrence/rule.ts RECURRENCE_FORMAT), checked when read.
        .addColumn('format', 'integer', (c) => c.notNull())
        .addColumn('rrule', 'text', (c) => c.notNull())
        // JSON arrays of iCalendar date values (`YYYYMMDD`, `YYYYMMDDTHHMMSS`, `…Z`).
        .addColumn('exdates', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('rdates', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .createTable('event_occurrences')
        .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
        .addColumn('series_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
        // The local start the rule gave this occurrence (`YYYY-MM-DD HH:MM:SS` in the series' zone).
        .addColumn('recurrence_id', 'text', (c) => c.notNull())
        .addColumn('overridden', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('event_occurrences_series')
        .on('event_occurrences')
        .columns(['series_id', 'recurrence_id'])
        .unique()
        .execute();
      if (kind === 'postgres') {
        for (const table of ['event_series', 'event_occurrences']) {
          await sql
            .raw(
              `create trigger ${table}_notify_change after insert or update or delete or truncate on ${table}
            for each statement execute function events_notify_change()`,
            )
            .execute(db);
        }
      }
    },
  };
}
