import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { STORES, startService, type Service, type TestResponse } from './support/harness.ts';

// Issue 23 item 4: ids past PostgreSQL's `integer` (2^31 and up, or past 64 bits) answered 500 `22003` there and
// 404 or 400 on SQLite. Every id position must answer exactly as for a missing id, on both stores.
const REST = '/wp-json/tribe/events/v1';
const MISSING = '999999';
const PAST_RANGE = ['2147483648', '9999999999999999999'];
const EDGES = ['-1', '0'];
const dates = '"start_date":"2018-01-12 10:00:00","end_date":"2018-01-12 11:00:00"';

type Ask = (svc: Service, id: string) => Promise<TestResponse>;
const json =
  (path: string, text: string): Ask =>
  (svc) =>
    svc.request('POST', path, { body: text, headers: { 'content-type': 'application/json' }, as: 'administrator' });
const get =
  (path: (id: string) => string): Ask =>
  (svc, id) =>
    svc.request('GET', path(id), { as: 'administrator' });

const FAMILIES = ['events', 'venues', 'organizers', 'categories', 'tags'];
const POSITIONS: Record<string, Ask> = {
  ...Object.fromEntries(
    FAMILIES.flatMap((f) => [
      [`GET /${f}/{id}`, get((id) => `${REST}/${f}/${id}`)],
      [
        `PATCH /${f}/{id}`,
        (svc: Service, id: string) =>
          svc.request('PATCH', `${REST}/${f}/${id}`, {
            json: { title: 'x', name: 'x', venue: 'x', organizer: 'x' },
            as: 'administrator',
          }),
      ],
      [
        `DELETE /${f}/{id}`,
        (svc: Service, id: string) => svc.request('DELETE', `${REST}/${f}/${id}`, { as: 'administrator' }),
      ],
    ]),
  ),
  ...Object.fromEntries(
    ['venue', 'organizer', 'include', 'post_parent', 'categories', 'tags'].map((k) => [
      `GET /events?${k}=`,
      get((id) => `${REST}/events?${k}=${id}`),
    ]),
  ),
  'GET /events?venue[]=': get((id) => `${REST}/events?venue[]=1&venue[]=${id}`),
  'GET /venues?event=': get((id) => `${REST}/venues?event=${id}`),
  'GET /organizers?event=': get((id) => `${REST}/organizers?event=${id}`),
  ...Object.fromEntries(
    ['include', 'exclude', 'parent', 'post', 'event'].map((k) => [
      `GET /categories?${k}=`,
      get((id) => `${REST}/categories?${k}=${id}`),
    ]),
  ),
  'GET /tags?post=': get((id) => `${REST}/tags?post=${id}`),
  'GET events.ics?venue=': (svc, id) => svc.request('GET', `${REST}/events.ics?venue=${id}`),
  'GET events.ics?include=': (svc, id) => svc.request('GET', `${REST}/events.ics?include=${id}`),
  'GET /events/?ical=1&post_parent=': (svc, id) => svc.request('GET', `/events/?ical=1&post_parent=${id}`),
  'POST /events venue': (svc, id) => json('/events', `{"title":"v",${dates},"venue":${id}}`)(svc, id),
  'POST /events venue {id}': (svc, id) => json('/events', `{"title":"v",${dates},"venue":{"id":"${id}"}}`)(svc, id),
  'POST /events organizer': (svc, id) => json('/events', `{"title":"o",${dates},"organizer":[${id}]}`)(svc, id),
  'POST /events categories': (svc, id) => json('/events', `{"title":"c",${dates},"categories":[${id}]}`)(svc, id),
  'POST /events tags': (svc, id) => json('/events', `{"title":"t",${dates},"tags":["${id}"]}`)(svc, id),
  'POST /events image': (svc, id) => json('/events', `{"title":"i",${dates},"image":"${id}"}`)(svc, id),
  'POST /events author': (svc, id) => json('/events', `{"title":"a",${dates},"author":${id}}`)(svc, id),
  'POST /venues image': (svc, id) => json('/venues', `{"venue":"V","image":${id}}`)(svc, id),
  'POST /organizers author': (svc, id) => json('/organizers', `{"organizer":"O","author":"${id}"}`)(svc, id),
  'POST /categories parent': (svc, id) => json('/categories', `{"name":"C${id}","parent":${id}}`)(svc, id),
};

/** What a client can tell two answers apart by: status and error code (messages echo the id sent). */
const outcome = (r: TestResponse) => ({ status: r.status, code: (r.body as { code?: string } | undefined)?.code });

describe.each(STORES)('ids past the integer range answer as missing ids ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
    await svc.request('POST', '/events', {
      json: {
        title: 'Existing',
        start_date: '2018-01-12 10:00:00',
        end_date: '2018-01-12 11:00:00',
        venue: { venue: 'Hall' },
      },
      as: 'administrator',
    });
  });
  afterAll(() => svc.close());

  it.each(Object.keys(POSITIONS))('%s', async (position) => {
    const ask = POSITIONS[position]!;
    const missing = outcome(await ask(svc, MISSING));
    expect(missing.status).not.toBe(500);
    for (const id of PAST_RANGE) expect({ id, ...outcome(await ask(svc, id)) }).toEqual({ id, ...missing });
    for (const id of EDGES) expect([200, 201, 400, 404]).toContain((await ask(svc, id)).status);
  });

  it('never gives a row the reserved id 2147483647 that ids past the range stand for', async () => {
    const insert = () =>
      sql`insert into terms (taxonomy, name, slug, description, parent) values ('post_tag', 'Last', 'last', '', 0)`.execute(
        svc.store.db,
      );
    if (factory.name === 'postgres') await sql`select setval('terms_id_seq', 2147483646)`.execute(svc.store.db);
    else await sql`update sqlite_sequence set seq = 2147483646 where name = 'terms'`.execute(svc.store.db);
    await expect(insert()).rejects.toThrow();
    expect((await svc.request('GET', `${REST}/tags/2147483647`)).status).toBe(400);
  });

  it('answers 404 rest-event-not-found for GET /events/2147483648, as for any missing event', async () => {
    const res = await svc.request('GET', `${REST}/events/2147483648`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'rest-event-not-found',
      message: 'Event with ID 2147483648 does not exist.',
      data: { status: 404 },
    });
  });
});
