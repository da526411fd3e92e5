import ICAL from 'ical.js';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventRepository } from '../src/event/index.ts';
import { readSeries } from '../src/recurrence/index.ts';
import { occurrenceExclusionsMigration } from '../src/db/migrations/010-occurrence-exclusions.ts';
import { STORES, createEvent, startService, type Service } from './support/harness.ts';

// Issue 23 item 7: re-sending a series' rule dropped the EXDATE of an occurrence deleted on its own and published its
// trashed post again. The README promises that no later edit brings a deleted occurrence back.
const FEED = '/wp-json/tribe/events/v1/events.ics';
const ZONE = 'America/New_York';

/** Local start days of the series' VEVENT in the feed, as ical.js expands it (RRULE, RDATE, EXDATE applied). */
function feedDays(ics: string, uid: string): string[] {
  const comp = new ICAL.Component(ICAL.parse(ics));
  for (const tz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  const master = comp
    .getAllSubcomponents('vevent')
    .find((v) => v.getFirstPropertyValue('uid') === uid && !v.hasProperty('recurrence-id'));
  if (master === undefined) throw new Error(`no VEVENT ${uid} in the feed`);
  const it = new ICAL.Event(master).iterator();
  const days: string[] = [];
  for (let next = it.next(); next && days.length < 100; next = it.next()) days.push(next.toString().slice(0, 10));
  return days;
}

describe.each(STORES)('occurrences deleted on their own ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());
  const admin = { as: 'administrator' } as const;
  const listed = async (id: number): Promise<Array<{ id: number; start_date: string }>> =>
    (await svc.get('/events', { query: { post_parent: id, per_page: 50, start_date: '2000-01-01' } })).body.events;
  const days = async (id: number) => (await listed(id)).map((e) => e.start_date.slice(0, 10));
  const patch = async (id: number, json: Record<string, unknown>) => {
    const res = await svc.request('PATCH', `/events/${id}`, { ...admin, json });
    expect(res.status).toBe(200);
    return res;
  };
  const exdates = async (id: number) =>
    (await readSeries(svc.store.db, id, eventRepository(svc.store.db).findById))?.exdates;
  const feed = async () => (await svc.get(FEED, { query: { start_date: '2018-01-01', end_date: '2018-12-31' } })).text;
  /** A weekly series at 18:00 New York from 1 March 2018 with its occurrence of 15 March deleted. */
  async function withDeleted(title: string, recurrence: unknown) {
    const first = await createEvent(svc, {
      title,
      status: 'publish',
      timezone: ZONE,
      start_date: '2018-03-01 18:00:00',
      end_date: '2018-03-01 20:00:00',
      recurrence,
    });
    const gone = (await listed(first.id)).find((e) => e.start_date.startsWith('2018-03-15'))!.id;
    expect((await svc.request('DELETE', `/events/${gone}`, admin)).status).toBe(200);
    return { first: first.id as number, gone };
  }
  const expectGone = async (first: number, gone: number) => {
    expect((await listed(first)).map((e) => e.id)).not.toContain(gone);
    const single = await svc.get(`/events/${gone}`, admin);
    expect([single.status, single.body.code]).toEqual([403, 'event-no-longer-available']);
  };

  it('keeps a deleted occurrence out of the list, the single read and the feed when the same rule is sent again', async () => {
    const { first, gone } = await withDeleted('Resent', 'RRULE:FREQ=WEEKLY;COUNT=4');
    await patch(first, { recurrence: 'RRULE:FREQ=WEEKLY;COUNT=4' });
    await svc.request('PUT', `/events/${first}`, {
      ...admin,
      form: { recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' }, title: 'Resent (form)' },
    });
    expect(await days(first)).toEqual(['2018-03-08', '2018-03-22']);
    await expectGone(first, gone);
    expect(await exdates(first)).toEqual(['20180315T180000']);
    const ics = await feed();
    expect(ics).toContain('EXDATE;TZID=America/New_York:20180315T180000');
    expect(feedDays(ics, `${first}@wordpress.test`)).toEqual(['2018-03-01', '2018-03-08', '2018-03-22']);
  });

  it('keeps it deleted through an edited rule whose EXDATEs omit it, a move of the series and the end and return of its rule', async () => {
    const { first, gone } = await withDeleted('Edited', 'FREQ=WEEKLY;COUNT=4');
    await patch(first, { recurrence: { rrule: 'FREQ=WEEKLY;COUNT=6', exdate: ['2018-03-29'] } });
    expect(await days(first)).toEqual(['2018-03-08', '2018-03-22', '2018-04-05']);
    expect(await exdates(first)).toEqual(['20180315T180000', '20180329']);
    // The series' time of day moves: the deleted day stays deleted at the new time.
    await patch(first, { start_date: '2018-03-01 17:00:00', end_date: '2018-03-01 19:00:00' });
    expect((await listed(first)).map((e) => e.start_date)).toEqual([
      '2018-03-08 17:00:00',
      '2018-03-22 17:00:00',
      '2018-04-05 17:00:00',
    ]);
    expect(await exdates(first)).toEqual(['20180315T170000', '20180329']);
    // An EXDATE the client sent is the rule's own: sent without it, its day comes back; the deleted one does not.
    await patch(first, { recurrence: 'FREQ=WEEKLY;COUNT=6', title: 'Edited again' });
    expect(await days(first)).toEqual(['2018-03-08', '2018-03-22', '2018-03-29', '2018-04-05']);
    await expectGone(first, gone);
    const ics = await feed();
    expect(ics).toContain('EXDATE;TZID=America/New_York:20180315T170000');
    expect(feedDays(ics, `${first}@wordpress.test`)).toEqual([
      '2018-03-01',
      '2018-03-08',
      '2018-03-22',
      '2018-03-29',
      '2018-04-05',
    ]);
    // Ending the series and giving it a rule again does not bring it back either.
    await patch(first, { recurrence: '' });
    await patch(first, { recurrence: 'FREQ=WEEKLY;COUNT=4' });
    expect(await days(first)).toEqual(['2018-03-08', '2018-03-22']);
    await expectGone(first, gone);
  });

  it('restores the rest of a trashed series without it, and restores it only when it is sent a status other than trash', async () => {
    const { first, gone } = await withDeleted('Restored', 'FREQ=WEEKLY;COUNT=4');
    expect((await svc.request('DELETE', `/events/${first}`, admin)).status).toBe(200);
    await patch(first, { status: 'publish' });
    expect(await days(first)).toEqual(['2018-03-08', '2018-03-22']);
    await expectGone(first, gone);
    // An edit of the deleted occurrence itself that leaves it in the trash keeps it deleted.
    await patch(gone, { title: 'Still deleted' });
    await patch(first, { recurrence: 'FREQ=WEEKLY;COUNT=4' });
    await expectGone(first, gone);
    expect(await exdates(first)).toEqual(['20180315T180000']);
    const back = await patch(gone, { status: 'publish' });
    expect(back.body).toMatchObject({
      id: gone,
      status: 'publish',
      start_date: '2018-03-15 18:00:00',
      title: 'Still deleted',
    });
    expect(await exdates(first)).toEqual([]);
    await patch(first, { recurrence: 'FREQ=WEEKLY;COUNT=4', title: 'Restored series' });
    expect((await listed(first)).map((e) => e.id)).toContain(gone);
    expect((await svc.get(`/events/${gone}`)).body.title).toBe('Still deleted');
  });

  // Last: it drops and re-adds a column under the running service.
  it('marks, when migrating, the trashed occurrences whose start the old format had added to the EXDATEs', async () => {
    const { first, gone } = await withDeleted('Migrated', 'FREQ=WEEKLY;COUNT=4');
    const whole = await createEvent(svc, {
      title: 'Trashed whole',
      status: 'publish',
      start_date: '2018-03-01 18:00:00',
      end_date: '2018-03-01 20:00:00',
      recurrence: 'FREQ=WEEKLY;COUNT=3',
    });
    expect((await svc.request('DELETE', `/events/${whole.id}`, admin)).status).toBe(200);
    // The state migration 009 left: the deleted occurrence's start among the EXDATEs, no exclusion column.
    const db = svc.store.db;
    await db.updateTable('event_series').set({ exdates: '["20180315T180000"]' }).where('post_id', '=', first).execute();
    await sql`alter table event_occurrences drop column excluded`.execute(db);
    await occurrenceExclusionsMigration.up(db);
    const rows = await db
      .selectFrom('event_occurrences')
      .select(['post_id', 'excluded'])
      .where('series_id', 'in', [first, whole.id])
      .orderBy('post_id')
      .execute();
    expect(rows.filter((r) => r.excluded === 1).map((r) => r.post_id)).toEqual([gone]);
    expect(rows).toHaveLength(5);
  });
});
