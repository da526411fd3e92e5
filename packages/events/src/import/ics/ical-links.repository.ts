import type { Kysely } from 'kysely';
import type { Database, IcalLinksTable } from '../../db/index.ts';

/** UIDs per query: well under both stores' bound-parameter limits. */
const CHUNK = 500;

export const linkKey = (uid: string, recurrenceId: string): string => `${uid}\u0000${recurrenceId}`;

/** The `ical_links` rows (migration 016): which post each imported VEVENT became, and the digest written. */
export function icalLinksRepository(db: Kysely<Database>) {
  return {
    /** The links of these UIDs (any source) and of every VEVENT last imported from `source`, by `linkKey`. */
    async find(uids: readonly string[], source: string): Promise<Map<string, IcalLinksTable>> {
      const out = new Map<string, IcalLinksTable>();
      const distinct = [...new Set(uids)];
      for (let i = 0; i < distinct.length; i += CHUNK) {
        const rows = await db
          .selectFrom('ical_links')
          .selectAll()
          .where('uid', 'in', distinct.slice(i, i + CHUNK))
          .execute();
        for (const r of rows) out.set(linkKey(r.uid, r.recurrence_id), r);
      }
      for (const r of await db.selectFrom('ical_links').selectAll().where('source', '=', source).execute())
        out.set(linkKey(r.uid, r.recurrence_id), r);
      return out;
    },
    /** Which of these posts still exist as events: one query per 500 ids, not one per linked VEVENT. */
    async existingEvents(ids: readonly number[]): Promise<Set<number>> {
      const out = new Set<number>();
      const distinct = [...new Set(ids)];
      for (let i = 0; i < distinct.length; i += CHUNK) {
        const rows = await db
          .selectFrom('posts')
          .select('id')
          .where('id', 'in', distinct.slice(i, i + CHUNK))
          .where('type', '=', 'tribe_events')
          .execute();
        for (const r of rows) out.add(r.id);
      }
      return out;
    },
    async save(row: IcalLinksTable, existed: boolean): Promise<void> {
      if (!existed) {
        await db.insertInto('ical_links').values(row).execute();
        return;
      }
      await db
        .updateTable('ical_links')
        .set({ source: row.source, post_id: row.post_id, digest: row.digest })
        .where('uid', '=', row.uid)
        .where('recurrence_id', '=', row.recurrence_id)
        .execute();
    },
    async remove(uid: string, recurrenceId: string): Promise<void> {
      await db.deleteFrom('ical_links').where('uid', '=', uid).where('recurrence_id', '=', recurrenceId).execute();
    },
    /** The occurrence post of series `seriesId` standing for the start `recurrenceId` (series zone), if any. */
    async occurrence(seriesId: number, recurrenceId: string): Promise<number | undefined> {
      const row = await db
        .selectFrom('event_occurrences')
        .select('post_id')
        .where('series_id', '=', seriesId)
        .where('recurrence_id', '=', recurrenceId)
        .executeTakeFirst();
      return row?.post_id;
    },
  };
}
