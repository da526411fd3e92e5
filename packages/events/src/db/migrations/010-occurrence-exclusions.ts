import type { Migration } from 'kysely';

/** `YYYY-MM-DD HH:MM:SS` (a RECURRENCE-ID as stored) as the iCalendar value an EXDATE stored for it has. */
const icalOf = (recurrenceId: string) => recurrenceId.replace(/[-:]/g, '').replace(' ', 'T');

/**
 * Migration 010: an occurrence deleted on its own is marked `excluded` on its row (and stays in the trash), so the
 * exclusion belongs to the series' stored state rather than to the rule text a client may send again (issue 23).
 * Before this, deleting an occurrence added its start to `event_series.exdates`; trashed occurrences whose start is
 * there are the ones deleted that way.
 */
export const occurrenceExclusionsMigration: Migration = {
  async up(db) {
    await db.schema
      .alterTable('event_occurrences')
      .addColumn('excluded', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    const trashed = (await db
      .selectFrom('event_occurrences as o')
      .innerJoin('posts as p', 'p.id', 'o.post_id')
      .innerJoin('event_series as s', 's.post_id', 'o.series_id')
      .select(['o.post_id', 'o.recurrence_id', 's.exdates'])
      .where('p.status', '=', 'trash')
      .execute()) as Array<{ post_id: number; recurrence_id: string; exdates: string }>;
    const excluded = trashed
      .filter((o) => (JSON.parse(o.exdates) as string[]).includes(icalOf(o.recurrence_id)))
      .map((o) => o.post_id);
    for (let i = 0; i < excluded.length; i += 500) {
      await db
        .updateTable('event_occurrences')
        .set({ excluded: 1 })
        .where('post_id', 'in', excluded.slice(i, i + 500))
        .execute();
    }
  },
};
