import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventRepository } from '../src/event/index.ts';
import { expandSeries, parseRecurrence, readSeries } from '../src/recurrence/index.ts';
import { formatWall, makeWall } from '../src/time/index.ts';
import { STORES, countWritten, createEvent, startService, type Service } from './support/harness.ts';

const ids = (res: { body: { events: Array<{ id: number }> } }) => res.body.events.map((e) => e.id);

describe.each(STORES)('recurring events ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory, { env: { EVENTS_RECURRENCE_MAX_OCCURRENCES: '60' } });
  });
  afterAll(() => svc.close());
  const series = (id: number, extra: Record<string, unknown> = {}) =>
    svc.get('/events', { query: { post_parent: id, per_page: 50, start_date: '2000-01-01', ...extra } });
  const weekly = (fields: Record<string, unknown>) =>
    createEvent(svc, {
      title: 'Weekly meetup',
      start_date: '2018-03-01 18:00:00',
      end_date: '2018-03-01 20:00:00',
      timezone: 'America/New_York',
      ...fields,
    });

  it('creates a series as its first event plus one ordinary event per occurrence, with dated slugs', async () => {
    const first = await weekly({ recurrence: 'RRULE:FREQ=WEEKLY;COUNT=4', categories: ['Meetups'] });
    expect(first).not.toHaveProperty('recurrence');
    const occ = await series(first.id);
    expect(occ.status).toBe(200);
    expect(occ.body.events.map((e: { slug: string }) => e.slug)).toEqual([
      'weekly-meetup-2018-03-08',
      'weekly-meetup-2018-03-15',
      'weekly-meetup-2018-03-22',
    ]);
    // 18:00 New York on both sides of the DST change of 11 March: the UTC time moves, the local one stays.
    expect(
      occ.body.events.map((e: { start_date: string; utc_start_date: string }) => [e.start_date, e.utc_start_date]),
    ).toEqual([
      ['2018-03-08 18:00:00', '2018-03-08 23:00:00'],
      ['2018-03-15 18:00:00', '2018-03-15 22:00:00'],
      ['2018-03-22 18:00:00', '2018-03-22 22:00:00'],
    ]);
    const bySlug = await svc.get('/events/by-slug/weekly-meetup-2018-03-15');
    expect(bySlug.body).toMatchObject({
      id: occ.body.events[1].id,
      title: 'Weekly meetup',
      end_date: '2018-03-15 20:00:00',
      categories: [{ name: 'Meetups', count: 4 }],
    });
    const byId = await svc.get(`/events/${occ.body.events[2].id}`);
    expect(byId.status).toBe(200);
    const listed = await svc.get('/events', {
      query: { start_date: '2018-03-01', end_date: '2018-03-31', search: 'Weekly meetup' },
    });
    expect(ids(listed)).toEqual([first.id, ...ids(occ)]);
  });

  it('keeps the occurrences of a draft series unnamed and private to editors until the series is published', async () => {
    const first = await weekly({ title: 'Draft club', status: 'draft', recurrence: 'FREQ=WEEKLY;COUNT=3' });
    expect((await series(first.id)).body.total).toBe(0);
    const drafts = await series(first.id, { status: 'draft' });
    const asAdmin = await svc.get('/events', {
      as: 'administrator',
      query: { post_parent: first.id, status: 'draft', start_date: '2000-01-01' },
    });
    expect(drafts.status).not.toBe(200);
    expect(asAdmin.body.events.map((e: { slug: string; status: string }) => [e.slug, e.status])).toEqual([
      ['', 'draft'],
      ['', 'draft'],
    ]);
    await svc.request('PATCH', `/events/${first.id}`, { as: 'administrator', json: { status: 'publish' } });
    expect((await series(first.id)).body.events.map((e: { slug: string }) => e.slug)).toEqual([
      'draft-club-2018-03-08',
      'draft-club-2018-03-15',
    ]);
  });

  it('accepts the object form in a form body, with EXDATE and RDATE', async () => {
    const res = await svc.request('POST', '/events', {
      as: 'administrator',
      form: {
        title: 'Form series',
        start_date: '2018-05-01 09:00:00',
        end_date: '2018-05-01 10:00:00',
        recurrence: { rrule: 'FREQ=DAILY;COUNT=3', exdate: ['2018-05-02'], rdate: ['2018-05-10 12:00:00'] },
      },
    });
    expect(res.status).toBe(201);
    expect((await series(res.body.id)).body.events.map((e: { start_date: string }) => e.start_date)).toEqual([
      '2018-05-03 09:00:00',
      '2018-05-10 12:00:00',
    ]);
  });

  it("creates the event and ignores Events Calendar Pro's recurrence object, as the plugin without Pro does (issue 25)", async () => {
    // The body ESIPFed's create_recurring_events.py sends.
    const pro = {
      rules: [{ type: 'Every Week', 'end-type': 'After', 'end-count': 5, custom: { week: { day: ['4'] } } }],
      exclusions: [],
      description: 'Weekly',
    };
    const res = await svc.request('POST', '/events', {
      as: 'administrator',
      json: {
        title: 'Pro-style series',
        start_date: '2018-06-07 18:00:00',
        end_date: '2018-06-07 19:00:00',
        recurrence: pro,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).not.toHaveProperty('recurrence');
    expect((await series(res.body.id)).body.total).toBe(0);
    // An update with it changes nothing else and keeps an RFC 5545 series that is already there.
    const weeklyFirst = await weekly({ title: 'Kept series', recurrence: 'FREQ=WEEKLY;COUNT=3' });
    const patched = await svc.request('PATCH', `/events/${weeklyFirst.id}`, {
      as: 'administrator',
      json: { recurrence: pro, cost: '5' },
    });
    expect(patched.status).toBe(200);
    expect((await series(weeklyFirst.id)).body.total).toBe(2);
    // A key outside Pro's object is still ours to refuse.
    const mixed = await svc.request('POST', '/events', {
      as: 'administrator',
      json: {
        title: 'Mixed',
        start_date: '2018-06-07 18:00:00',
        end_date: '2018-06-07 19:00:00',
        recurrence: { rules: [], rrule: 'FREQ=DAILY' },
      },
    });
    expect(mixed.status).toBe(400);
  });

  it('refuses a bad or oversized rule with a 400 on recurrence before writing anything', async () => {
    const before = await countWritten(svc);
    for (const [recurrence, message] of [
      ['FREQ=WEEKLY', /COUNT or UNTIL/],
      ['FREQ=WEEKLY;COUNT=61', /more than 60 occurrences/],
      ['FREQ=MINUTELY;COUNT=2', /FREQ/],
      ['RRULE:FREQ=DAILY;COUNT=2;BYHOUR=4', /BYHOUR/],
      [{ rrule: 'FREQ=DAILY;COUNT=2', exdate: 'soon' }, /EXDATE/],
      [['x'], /recurrence must be/],
      ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=2', /BYMONTHDAY.*never occurs/],
    ] as const) {
      const res = await svc.request('POST', '/events', {
        as: 'administrator',
        json: { title: 'No', start_date: '2018-01-01 10:00', end_date: '2018-01-01 11:00', recurrence },
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(res.body.data.params.recurrence).toMatch(message);
    }
    const late = await svc.request('POST', '/events', {
      as: 'administrator',
      json: {
        title: 'Late',
        start_date: '9999-12-30 23:00',
        end_date: '9999-12-31 00:30',
        recurrence: 'FREQ=DAILY;COUNT=2',
      },
    });
    expect(late.status).toBe(400);
    expect(late.body.data.params.recurrence).toMatch(/outside the dates that can be stored/);
    const atLimit = await weekly({ title: 'Sixty', recurrence: 'FREQ=DAILY;COUNT=60' });
    expect((await series(atLimit.id, { per_page: 100 })).body.total).toBe(59);
    const after = await countWritten(svc);
    expect(after[0]! - before[0]!).toBe(60);
  });

  it('carries an edit of the first event to every occurrence not edited alone', async () => {
    const first = await weekly({ title: 'Book club', recurrence: 'FREQ=WEEKLY;COUNT=3' });
    const [a, b] = ids(await series(first.id));
    const alone = await svc.request('PATCH', `/events/${a}`, {
      as: 'administrator',
      json: { title: 'Book club (moved)', start_date: '2018-03-09 19:00:00', end_date: '2018-03-09 21:00:00' },
    });
    expect(alone.status).toBe(200);
    const all = await svc.request('PATCH', `/events/${first.id}`, {
      as: 'administrator',
      json: { title: 'Reading club', description: 'Bring a book' },
    });
    expect(all.status).toBe(200);
    const now = (await series(first.id)).body.events;
    expect(now.map((e: { id: number; title: string; start_date: string }) => [e.id, e.title, e.start_date])).toEqual([
      [a, 'Book club (moved)', '2018-03-09 19:00:00'],
      [b, 'Reading club', '2018-03-15 18:00:00'],
    ]);
    expect(now[1].description).toBe('<p>Bring a book</p>');
    // `recurrence_edit=all` sent to an occurrence edits the series; dates move only through the first event.
    const viaOccurrence = await svc.request('PATCH', `/events/${b}`, {
      as: 'administrator',
      json: { recurrence_edit: 'all', title: 'Readers' },
    });
    expect(viaOccurrence.body).toMatchObject({ id: first.id, title: 'Readers' });
    expect((await svc.get(`/events/${b}`)).body.title).toBe('Readers');
    const moved = await svc.request('PATCH', `/events/${b}`, {
      as: 'administrator',
      json: { recurrence_edit: 'all', start_date: '2018-03-16 10:00' },
    });
    expect(moved.status).toBe(400);
    expect(moved.body.data.params.recurrence_edit).toMatch(/first event/);
    const own = await svc.request('PATCH', `/events/${b}`, {
      as: 'administrator',
      json: { recurrence: 'FREQ=DAILY;COUNT=2' },
    });
    expect(own.status).toBe(400);
    // Moving the series' time of day moves its occurrences (ids kept); the one edited alone keeps its own dates.
    const shifted = await svc.request('PATCH', `/events/${first.id}`, {
      as: 'administrator',
      json: { start_date: '2018-03-01 17:00:00', end_date: '2018-03-01 19:00:00' },
    });
    expect(shifted.status).toBe(200);
    expect(
      (await series(first.id)).body.events.map((e: { id: number; start_date: string }) => [e.id, e.start_date]),
    ).toEqual([
      [a, '2018-03-09 19:00:00'],
      [b, '2018-03-15 17:00:00'],
    ]);
    // Moving it to other days: the occurrence edited alone lost its start and becomes a plain event.
    await svc.request('PATCH', `/events/${first.id}`, {
      as: 'administrator',
      json: { start_date: '2018-03-02 17:00:00', end_date: '2018-03-02 19:00:00' },
    });
    expect((await series(first.id)).body.events.map((e: { id: number; start_date: string }) => e.start_date)).toEqual([
      '2018-03-09 17:00:00',
      '2018-03-16 17:00:00',
    ]);
    expect((await svc.get(`/events/${a}`)).body.title).toBe('Book club (moved)');
  });

  it('changes the rule: kept starts keep their ids, lost ones are removed, an empty value ends the series', async () => {
    const first = await weekly({ title: 'Choir', recurrence: 'FREQ=WEEKLY;COUNT=4' });
    const before = ids(await series(first.id));
    const shorter = await svc.request('PATCH', `/events/${first.id}`, {
      as: 'administrator',
      json: { recurrence: 'FREQ=WEEKLY;COUNT=3' },
    });
    expect(shorter.status).toBe(200);
    expect(ids(await series(first.id))).toEqual(before.slice(0, 2));
    const ended = await svc.request('PATCH', `/events/${first.id}`, { as: 'administrator', json: { recurrence: '' } });
    expect(ended.status).toBe(200);
    expect((await series(first.id)).body.total).toBe(0);
    expect((await svc.get(`/events/${before[0]}`)).status).toBe(404);
  });

  it('deletes one occurrence as an EXDATE, and a whole series with its first event', async () => {
    const first = await weekly({ title: 'Yoga', recurrence: 'FREQ=WEEKLY;COUNT=4' });
    const [a, b, c] = ids(await series(first.id));
    const del = await svc.request('DELETE', `/events/${b}`, { as: 'administrator' });
    expect(del.status).toBe(200);
    expect(del.body.status).toBe('trash');
    await svc.request('PATCH', `/events/${first.id}`, { as: 'administrator', json: { title: 'Yoga class' } });
    expect(ids(await series(first.id))).toEqual([a, c]);
    const view = await readSeries(svc.store.db, first.id, eventRepository(svc.store.db).findById);
    expect(view).toMatchObject({
      rrule: 'FREQ=WEEKLY;COUNT=4',
      exdates: ['20180315T180000'],
      rdates: [],
      overrides: [],
    });
    const all = await svc.request('DELETE', `/events/${first.id}`, { as: 'administrator' });
    expect(all.status).toBe(200);
    for (const id of [a, c])
      expect((await svc.get(`/events/${id}`, { as: 'administrator' })).body.code).toBe('event-no-longer-available');
    expect((await series(first.id)).body.total).toBe(0);
  });

  it('exports a series with its occurrences edited alone as overrides', async () => {
    const first = await weekly({
      title: 'Standup',
      recurrence: { rrule: 'FREQ=DAILY;UNTIL=20180304', rdate: '20180310T090000' },
    });
    const [a] = ids(await series(first.id));
    await svc.request('PATCH', `/events/${a}`, { as: 'administrator', json: { title: 'Standup (remote)' } });
    const view = await readSeries(svc.store.db, a!, eventRepository(svc.store.db).findById);
    expect(view?.first.id).toBe(first.id);
    expect(view?.rrule).toBe('FREQ=DAILY;UNTIL=20180304');
    expect(view?.rdates).toEqual(['20180310T090000']);
    expect(view?.overrides.map((o) => [o.recurrenceId, o.event.title])).toEqual([
      ['2018-03-02 18:00:00', 'Standup (remote)'],
    ]);
    expect(view?.occurrenceIds).toHaveLength(4);
    expect(
      await readSeries(
        svc.store.db,
        (await createEvent(svc, { title: 'Once' })).id,
        eventRepository(svc.store.db).findById,
      ),
    ).toBeUndefined();
  });

  it('keeps the stored occurrences equal to the expanded rule through any sequence of rule changes', async () => {
    const rules = fc.record({
      freq: fc.constantFrom('DAILY', 'WEEKLY'),
      interval: fc.integer({ min: 1, max: 3 }),
      count: fc.integer({ min: 1, max: 8 }),
      ex: fc.uniqueArray(fc.integer({ min: 1, max: 20 }), { maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(rules, { minLength: 1, maxLength: 4 }), async (steps) => {
        const first = await weekly({ title: 'Property series', recurrence: 'FREQ=DAILY;COUNT=2' });
        for (const r of steps) {
          const recurrence = {
            rrule: `FREQ=${r.freq};INTERVAL=${r.interval};COUNT=${r.count}`,
            exdate: r.ex.map((d) => formatWall(makeWall(2018, 3, 1 + d)).slice(0, 10)),
          };
          const res = await svc.request('PATCH', `/events/${first.id}`, { as: 'administrator', json: { recurrence } });
          expect(res.status).toBe(200);
          const expected = expandSeries(
            { start: makeWall(2018, 3, 1, 18), zone: 'America/New_York', spec: parseRecurrence(recurrence)! },
            { maxOccurrences: 60 },
          );
          const got = (await series(first.id)).body.events.map((e: { start_date: string }) => e.start_date);
          expect(got).toEqual(expected.slice(1).map(formatWall));
        }
        await svc.request('DELETE', `/events/${first.id}`, { as: 'administrator' });
      }),
      { numRuns: 6 },
    );
  });

  it('writes a series entirely or not at all when the database fails part way', async () => {
    const db = svc.store.db;
    // A real failure inside the transaction: the third occurrence row is refused by a trigger.
    if (factory.name === 'sqlite') {
      await sql`create trigger fail_third before insert on event_occurrences when (select count(*) from event_occurrences where series_id = new.series_id) >= 2
        begin select raise(abort, 'injected failure'); end`.execute(db);
    } else {
      await sql`create function fail_third() returns trigger language plpgsql as $$ begin
        if (select count(*) from event_occurrences where series_id = new.series_id) >= 2 then raise exception 'injected failure'; end if;
        return new; end $$`.execute(db);
      await sql`create trigger fail_third before insert on event_occurrences for each row execute function fail_third()`.execute(
        db,
      );
    }
    try {
      const before = await countWritten(svc);
      const res = await svc.request('POST', '/events', {
        as: 'administrator',
        json: {
          title: 'Doomed',
          start_date: '2018-06-01 10:00',
          end_date: '2018-06-01 11:00',
          recurrence: 'FREQ=DAILY;COUNT=5',
        },
      });
      expect(res.status).toBe(500);
      expect(await countWritten(svc)).toEqual(before);
    } finally {
      await sql`drop trigger fail_third${factory.name === 'sqlite' ? sql`` : sql` on event_occurrences`}`.execute(db);
    }
  });
});
