import type { Migration } from 'kysely';

/**
 * Schema version 16 (issue 30 item 2): iCalendar imports and subscriptions. `ical_links` maps a feed's VEVENT (its
 * UID and, for an overridden occurrence, its RECURRENCE-ID) to the event post it became, with a digest of what was
 * written, so a re-sync updates only changed events and trashes those that left their feed. `ical_subscriptions`
 * holds the feeds the service fetches on a schedule. Not calendar data: no change-notification trigger (the event
 * writes of an import notify as any write does).
 */
export const icalImportMigration: Migration = {
  async up(db) {
    await db.schema
      .createTable('ical_links')
      .addColumn('uid', 'text', (c) => c.notNull())
      // '' for a VEVENT without RECURRENCE-ID; else the overridden start as `YYYY-MM-DD HH:MM:SS` in the series' zone.
      .addColumn('recurrence_id', 'text', (c) => c.notNull())
      // The file path or URL the VEVENT was last imported from: a re-sync of that source trashes what left it.
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('post_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
      // sha-256 of the REST parameters written (ical/import DESIGN: the same VEVENT again writes nothing).
      .addColumn('digest', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('ical_links_pk', ['uid', 'recurrence_id'])
      .execute();
    await db.schema.createIndex('ical_links_source').on('ical_links').column('source').execute();
    await db.schema
      .createTable('ical_subscriptions')
      .addColumn('url', 'text', (c) => c.primaryKey())
      .addColumn('every_seconds', 'integer', (c) => c.notNull())
      // 1: events that leave the feed are trashed on the next sync; 0: they are kept.
      .addColumn('trash_vanished', 'integer', (c) => c.notNull())
      // The user the imports write as; null: the first administrator at the time of the run.
      .addColumn('author_id', 'integer')
      // Milliseconds since the epoch (bigint: read back as a string on PostgreSQL).
      .addColumn('next_run_ms', 'bigint', (c) => c.notNull())
      .addColumn('last_run_ms', 'bigint')
      // '' (never ran), 'ok' or 'error'; the message says what the last run did or why it failed.
      .addColumn('last_status', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('last_message', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_ms', 'bigint', (c) => c.notNull())
      .execute();
  },
};
