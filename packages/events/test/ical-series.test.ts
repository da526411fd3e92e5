import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandWithIcalJs, expandWithPython, type Occurrence } from './support/feed-readers.ts';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

// A recurring series in the feeds: one VEVENT with RRULE/EXDATE plus RECURRENCE-ID overrides, expanded back by two
// independent readers (ical.js; python3-icalendar with dateutil's rrule) and compared occurrence by occurrence with
// what the list route answers for the series (`post_parent`).
const FEED = '/wp-json/tribe/events/v1/events.ics';
const WINDOW = { start_date: '2032-01-01', end_date: '2033-12-31' };

describe.each(STORES)('recurring series in the iCalendar feeds ($name)', (factory) => {
  let svc: Service;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies
  let first: any;
  let occurrenceIds: number[];
  const host = 'wordpress.test';
  const feed = async (query: Record<string, string> = WINDOW) => svc.get(FEED, { query });
  const seriesFromApi = async (): Promise<Occurrence[]> => {
    const query = { post_parent: first.id, per_page: 50, start_date: '2000-01-01', end_date: '2040-01-01' };
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies
    const occ = (await svc.get('/events', { query })).body.events as any[];
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies
    const head = (await svc.get(`/events/${first.id}`)).body as any;
    return [head, ...occ].map((e) => ({
      uid: `${first.id}@${host}`,
      summary: e.title,
      start: e.utc_start_date,
      end: e.utc_end_date,
      tzid: e.timezone,
    }));
  };

  beforeAll(async () => {
    svc = await startService(factory);
    // 18:00 Paris every Monday from 15 March 2032: summer time starts on 28 March, so the UTC time moves by an hour.
    first = await createEvent(svc, {
      title: 'Weekly meetup',
      status: 'publish',
      timezone: 'Europe/Paris',
      start_date: '2032-03-15 18:00:00',
      end_date: '2032-03-15 20:00:00',
      recurrence: 'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=8',
    });
    await createEvent(svc, {
      title: 'Plain event',
      status: 'publish',
      timezone: 'UTC',
      start_date: '2032-04-01 10:00:00',
      end_date: '2032-04-01 11:00:00',
    });
    occurrenceIds = (
      await svc.get('/events', {
        query: { post_parent: first.id, per_page: 50, start_date: '2000-01-01', end_date: '2040-01-01' },
      })
    ).body.events.map((e: { id: number }) => e.id);
    expect(occurrenceIds).toHaveLength(7);
  });
  afterAll(async () => {
    await svc.close();
  });

  const check = async (ics: string) => {
    const api = await seriesFromApi();
    const mine = (list: Occurrence[]) => list.filter((o) => o.uid === `${first.id}@${host}`);
    expect(mine(expandWithIcalJs(ics))).toEqual(api);
    expect(mine(expandWithPython(ics))).toEqual(api);
    // One master VEVENT; its plain occurrences are not exported again on their own.
    for (const id of occurrenceIds) expect(ics).not.toContain(`UID:${id}@${host}`);
    expect(ics.match(/^RRULE:/gm)).toHaveLength(1);
  };

  it('exports the series as one VEVENT whose expansion equals the API across the DST change', async () => {
    const res = await feed();
    expect(res.status).toBe(200);
    expect(res.text).toContain('RRULE:FREQ=WEEKLY;COUNT=8;BYDAY=MO');
    await check(res.text);
    expect(expandWithIcalJs(res.text).map((o) => o.summary)).toContain('Plain event');
    const starts = (await seriesFromApi()).map((o) => o.start);
    expect(starts.slice(0, 3)).toEqual(['2032-03-15 17:00:00', '2032-03-22 17:00:00', '2032-03-29 16:00:00']);
  });

  it('changes the ETag and the export on edit all, edit one and delete one', async () => {
    const etags = [(await feed()).headers.get('etag')];
    // Edit all: the first event's title goes to every occurrence not edited alone.
    await svc.request('PATCH', `/events/${first.id}`, {
      as: 'administrator',
      json: { title: 'Weekly meetup (new room)' },
    });
    let res = await feed();
    etags.push(res.headers.get('etag'));
    await check(res.text);
    // Edit one: the third occurrence moves an hour later and is renamed: a RECURRENCE-ID override.
    const edited = occurrenceIds[2]!;
    await svc.request('PATCH', `/events/${edited}`, {
      as: 'administrator',
      json: { title: 'Meetup (moved)', start_date: '2032-04-05 19:00:00', end_date: '2032-04-05 21:00:00' },
    });
    res = await feed();
    etags.push(res.headers.get('etag'));
    expect(res.text).toContain('RECURRENCE-ID;TZID=Europe/Paris:20320405T180000');
    await check(res.text);
    // Delete one: an EXDATE.
    await svc.request('DELETE', `/events/${occurrenceIds[4]!}`, { as: 'administrator' });
    res = await feed();
    etags.push(res.headers.get('etag'));
    expect(res.text).toContain('EXDATE;TZID=Europe/Paris:20320419T180000');
    await check(res.text);
    expect(new Set(etags).size).toBe(4);
    expect(etags.every((e) => e !== null)).toBe(true);
  });

  it('exports the whole series when a filter matches only some occurrences, and from an occurrence page', async () => {
    const filtered = await feed({ ...WINDOW, search: 'moved' });
    expect(filtered.status).toBe(200);
    await check(filtered.text);
    expect(filtered.text).not.toContain('Plain event');
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies
    const occ = (await svc.get(`/events/${occurrenceIds[1]!}`)).body as any;
    const page = await svc.get(`${occ.url.replace('http://wordpress.test', svc.base)}?ical=1`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-disposition')).toBe(`attachment; filename="${occ.slug}.ics"`);
    await check(page.text);
  });
});
