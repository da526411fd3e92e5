import type { Kysely } from 'kysely';
import type { Database, EventColumns, EventOccurrencesTable, EventSeriesTable, PostsTable } from '../db/index.ts';
import { RECURRENCE_FORMAT, type RecurrenceSpec } from './rule.ts';

export type SeriesPost = Omit<PostsTable, 'id'> & { id: number } & EventColumns;
/** An occurrence row with its post's status and slug, as the feeds read it. */
export type OccurrenceRow = Omit<EventOccurrencesTable, 'excluded'> & { status: string; slug: string };
/** An occurrence row as writes and the series view read it: with its exclusion mark (deleted on its own). */
export type SeriesOccurrence = OccurrenceRow & { excluded: number };

/** A RECURRENCE-ID as stored (`YYYY-MM-DD HH:MM:SS`, series zone) as an iCalendar EXDATE value (`YYYYMMDDTHHMMSS`). */
export const exdateOf = (recurrenceId: string): string => recurrenceId.replace(/[-:]/g, '').replace(' ', 'T');

// SQLite allows 32,766 bound values per statement; rows are inserted and ids matched in slices well under it.
const SLICE = 500;
const OCCURRENCE_COLUMNS = [
  'event_occurrences.post_id',
  'event_occurrences.series_id',
  'event_occurrences.recurrence_id',
  'event_occurrences.overridden',
  'event_occurrences.excluded',
  'posts.status',
  'posts.slug',
] as const;
export const slices = <T>(items: readonly T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += SLICE) out.push(items.slice(i, i + SLICE));
  return out;
};

/** A stored rule row read as a spec; a row of another format stops the request instead of being misread. */
function specOf(row: EventSeriesTable): RecurrenceSpec {
  if (row.format !== RECURRENCE_FORMAT)
    throw new Error(
      `event_series row ${row.post_id} has format ${row.format}, this version reads ${RECURRENCE_FORMAT}`,
    );
  return { rrule: row.rrule, exdates: JSON.parse(row.exdates) as string[], rdates: JSON.parse(row.rdates) as string[] };
}

/** SQL for series rules and occurrence rows; `db` may be a transaction. */
export function seriesRepository(db: Kysely<Database>) {
  return {
    /** The stored rule of the series whose first event is `id`; a row of another format stops the request. */
    async findSpec(id: number): Promise<RecurrenceSpec | undefined> {
      const row = await db.selectFrom('event_series').selectAll().where('post_id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : specOf(row);
    },
    /** The stored rules of the series whose first events are among `ids`, by first event. */
    async findSpecs(ids: readonly number[]): Promise<Map<number, RecurrenceSpec>> {
      const out = new Map<number, RecurrenceSpec>();
      for (const part of slices(ids)) {
        for (const row of await db.selectFrom('event_series').selectAll().where('post_id', 'in', part).execute())
          out.set(row.post_id, specOf(row));
      }
      return out;
    },
    async saveSpec(id: number, spec: RecurrenceSpec): Promise<void> {
      const row = {
        format: RECURRENCE_FORMAT,
        rrule: spec.rrule,
        exdates: JSON.stringify(spec.exdates),
        rdates: JSON.stringify(spec.rdates),
      };
      await db
        .insertInto('event_series')
        .values({ post_id: id, ...row })
        .onConflict((oc) => oc.column('post_id').doUpdateSet(row))
        .execute();
    },
    async deleteSpec(id: number): Promise<void> {
      await db.deleteFrom('event_series').where('post_id', '=', id).execute();
    },
    /** The occurrence row of an occurrence post (undefined for a first event or a plain event). */
    occurrence: (id: number): Promise<EventOccurrencesTable | undefined> =>
      db.selectFrom('event_occurrences').selectAll().where('post_id', '=', id).executeTakeFirst(),
    occurrences: (seriesId: number): Promise<SeriesOccurrence[]> =>
      db
        .selectFrom('event_occurrences')
        .innerJoin('posts', 'posts.id', 'event_occurrences.post_id')
        .select(OCCURRENCE_COLUMNS)
        .where('event_occurrences.series_id', '=', seriesId)
        .orderBy('event_occurrences.recurrence_id')
        .execute(),
    /** The occurrence rows of those of `ids` that are occurrences. */
    async occurrencesOf(ids: readonly number[]): Promise<EventOccurrencesTable[]> {
      const out: EventOccurrencesTable[] = [];
      for (const part of slices(ids))
        out.push(...(await db.selectFrom('event_occurrences').selectAll().where('post_id', 'in', part).execute()));
      return out;
    },
    /** Every occurrence of the series `seriesIds`, in start order within each series. */
    async occurrencesOfSeries(seriesIds: readonly number[]): Promise<SeriesOccurrence[]> {
      const out: SeriesOccurrence[] = [];
      for (const part of slices(seriesIds)) {
        out.push(
          ...(await db
            .selectFrom('event_occurrences')
            .innerJoin('posts', 'posts.id', 'event_occurrences.post_id')
            .select(OCCURRENCE_COLUMNS)
            .where('event_occurrences.series_id', 'in', part)
            .orderBy('event_occurrences.series_id')
            .orderBy('event_occurrences.recurrence_id')
            .execute()),
        );
      }
      return out;
    },
    event: (id: number): Promise<SeriesPost | undefined> =>
      db
        .selectFrom('posts')
        .innerJoin('events', 'events.post_id', 'posts.id')
        .selectAll(['posts', 'events'])
        .where('posts.id', '=', id)
        .executeTakeFirst() as Promise<SeriesPost | undefined>,
    async rekey(id: number, recurrenceId: string): Promise<void> {
      await db
        .updateTable('event_occurrences')
        .set({ recurrence_id: recurrenceId })
        .where('post_id', '=', id)
        .execute();
    },
    async markOverridden(id: number): Promise<void> {
      await db.updateTable('event_occurrences').set({ overridden: 1 }).where('post_id', '=', id).execute();
    },
    /** Marks an occurrence deleted on its own (`true`), or restored (`false`). */
    async setExcluded(id: number, excluded: boolean): Promise<void> {
      await db
        .updateTable('event_occurrences')
        .set({ excluded: excluded ? 1 : 0 })
        .where('post_id', '=', id)
        .execute();
    },
    async insertOccurrences(rows: EventOccurrencesTable[]): Promise<void> {
      for (const part of slices(rows)) await db.insertInto('event_occurrences').values(part).execute();
    },
    /** Removes occurrence posts and everything that hangs off them. */
    async deletePosts(ids: readonly number[]): Promise<void> {
      for (const part of slices(ids)) {
        for (const table of ['event_terms', 'event_organizers'] as const)
          await db.deleteFrom(table).where('event_id', 'in', part).execute();
        await db.deleteFrom('event_occurrences').where('post_id', 'in', part).execute();
        await db.deleteFrom('events').where('post_id', 'in', part).execute();
        await db.deleteFrom('posts').where('id', 'in', part).execute();
      }
    },
    /** Makes edited occurrences plain events when the rule no longer has their start. */
    async detach(ids: readonly number[]): Promise<void> {
      for (const part of slices(ids)) {
        await db.deleteFrom('event_occurrences').where('post_id', 'in', part).execute();
        await db.updateTable('events').set({ parent_id: null }).where('post_id', 'in', part).execute();
      }
    },
    async termIdsOf(ids: readonly number[]): Promise<number[]> {
      const out: number[] = [];
      for (const part of slices(ids)) {
        out.push(
          ...(
            await db.selectFrom('event_terms').select('term_id').distinct().where('event_id', 'in', part).execute()
          ).map((r) => r.term_id),
        );
      }
      return out;
    },
    /** Gives `ids` exactly the terms and organizers of `from`. */
    async copyLinks(from: number, ids: readonly number[]): Promise<void> {
      const terms = await db.selectFrom('event_terms').select('term_id').where('event_id', '=', from).execute();
      const orgs = await db
        .selectFrom('event_organizers')
        .select(['organizer_id', 'position'])
        .where('event_id', '=', from)
        .execute();
      for (const part of slices(ids)) {
        for (const table of ['event_terms', 'event_organizers'] as const)
          await db.deleteFrom(table).where('event_id', 'in', part).execute();
      }
      for (const part of slices(ids.flatMap((id) => terms.map((t) => ({ event_id: id, term_id: t.term_id }))))) {
        await db.insertInto('event_terms').values(part).execute();
      }
      for (const part of slices(ids.flatMap((id) => orgs.map((o) => ({ event_id: id, ...o }))))) {
        await db.insertInto('event_organizers').values(part).execute();
      }
    },
  };
}

export type SeriesRepository = ReturnType<typeof seriesRepository>;
