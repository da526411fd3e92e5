import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { STORES, startService, createEvent, count, type Service } from './support/harness.ts';

const TABLES = ['posts', 'terms', 'events', 'event_terms', 'event_organizers'] as const;

describe.each(STORES)('bad input never writes and never 500s ($name)', (factory) => {
  let svc: Service;
  let eventId: number;
  let venueId: number;
  const snapshot = async () => Promise.all(TABLES.map((t) => count(svc, t)));
  beforeAll(async () => {
    svc = await startService(factory);
    const e = await createEvent(svc, {
      title: 'Existing',
      categories: ['Existing cat'],
      venue: { venue: 'Existing venue' },
      organizer: { organizer: 'Existing org' },
    });
    eventId = e.id;
    venueId = e.venue.id;
  });
  afterAll(() => svc.close());

  const minimal = { title: 'Bad', start_date: '2018-01-12 10:00', end_date: '2018-01-12 11:00' };
  const jsonCases: Array<[string, string, Record<string, unknown>, number, string]> = [
    ['POST', '/events', { ...minimal, title: 123 }, 400, 'rest_invalid_param'],
    // JSON null counts as not sent (core checks with isset), so a null title is a missing one.
    ['POST', '/events', { ...minimal, title: null }, 400, 'rest_missing_callback_param'],
    ['POST', '/events', { ...minimal, title: '' }, 400, 'rest_invalid_param'],
    ['POST', '/events', { title: 'x' }, 400, 'rest_missing_callback_param'],
    ['POST', '/events', { ...minimal, start_date: 'before my birthday' }, 400, 'rest_invalid_param'],
    ['POST', '/events', { ...minimal, end_date: '' }, 400, 'rest_invalid_param'],
    ['POST', '/events', { ...minimal, all_day: 'yes' }, 400, 'rest_invalid_param'],
    ['POST', '/events', { ...minimal, featured: '' }, 400, 'rest_invalid_param'],
    ['POST', '/events', { ...minimal, image: 123 }, 400, 'rest_invalid_param'],
    // A loopback URL is refused before any connection is made (EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS is off).
    ['POST', '/events', { ...minimal, image: 'http://127.0.0.1:9/a.jpg' }, 400, 'rest_invalid_param'],
    ['POST', '/events', { ...minimal, website: 'foo' }, 400, 'rest_invalid_param'],
    ['POST', '/events', { ...minimal, timezone: 'Mars/Olympus' }, 400, 'rest_invalid_param'],
    ['POST', '/events', { ...minimal, author: 23 }, 400, 'rest_invalid_param'],
    ['POST', '/events', { ...minimal, date: 'foo' }, 400, 'rest_invalid_param'],
    ['POST', '/events', { ...minimal, cost: { a: 1 } }, 400, 'rest_invalid_param'],
    [
      'POST',
      '/events',
      { ...minimal, categories: [{ a: 1 }], tags: ['new-tag-never-written'] },
      400,
      'rest_invalid_param',
    ],
    ['POST', '/events', { ...minimal, venue: 'abc' }, 400, 'rest_invalid_param'],
    [
      'POST',
      '/events',
      { ...minimal, venue: 999999, organizer: [{ organizer: 'never written' }] },
      400,
      'rest_invalid_param',
    ],
    ['POST', '/events', { ...minimal, organizer: [null] }, 400, 'rest_invalid_param'],
    ['POST', '/events', { ...minimal, slug: '' }, 400, 'rest_invalid_param'],
    ['PUT', '/events/{event}', { start_date: 'not a strtotime parsable string' }, 400, 'rest_invalid_param'],
    ['PATCH', '/events/{event}', { status: 'kinda_thinking_about_it' }, 400, 'rest_invalid_param'],
    // The plugin validates a by-slug slug on reads only: an update of an unknown one is its handler's 404 (issue 25).
    ['POST', '/events/by-slug/nope', { title: 'x' }, 404, 'rest-event-not-found'],
    ['POST', '/venues', { venue: 42 }, 400, 'rest_invalid_param'],
    ['POST', '/venues/{venue}', { geo_lat: 'north' }, 400, 'rest_invalid_param'],
    ['POST', '/venues/{venue}', { show_map: true }, 400, 'rest_invalid_param'],
    ['POST', '/organizers', { organizer: ['a'] }, 400, 'rest_invalid_param'],
    ['POST', '/categories', { name: { x: 1 } }, 400, 'rest_invalid_param'],
    ['POST', '/tags/999999', { name: 'x' }, 400, 'rest_invalid_param'],
  ];

  it.each(jsonCases)('%s %s %j → %i %s, nothing written', async (method, path, json, status, code) => {
    const before = await snapshot();
    const res = await svc.request(
      method,
      path.replace('{event}', String(eventId)).replace('{venue}', String(venueId)),
      { json, as: 'administrator' },
    );
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.body.data.status).toBe(status);
    expect(await snapshot()).toEqual(before);
  });

  it('reads malformed form bodies without crashing', async () => {
    const before = await snapshot();
    for (const body of [
      '%zz=1&title[=x',
      'title[a][b][c][d]=1&start_date[]=x',
      '&&&===',
      'title=%E0%A4%A&start_date=tomorrow',
    ]) {
      const res = await svc.request('POST', '/events', {
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        as: 'administrator',
      });
      expect(res.status, body).toBe(400);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('ignores bodies of unknown content types and unknown parameters', async () => {
    const res = await svc.request('POST', '/events', {
      body: '<xml/>',
      headers: { 'content-type': 'application/xml' },
      as: 'administrator',
    });
    expect(res.body.code).toBe('rest_missing_callback_param');
    const ok = await svc.request('GET', '/events', { query: { no_such_param: 'x', another: '1' } });
    expect(ok.status).toBe(200);
  });

  it('answers random JSON bodies with a 2xx or a documented 4xx, and writes nothing on a 4xx', async () => {
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
      fc.dictionary(
        fc.constantFrom('id', 'venue', 'organizer', 'x'),
        fc.oneof(fc.string({ maxLength: 5 }), fc.integer()),
      ),
    );
    const field = fc.constantFrom(
      'title',
      'start_date',
      'end_date',
      'all_day',
      'cost',
      'venue',
      'organizer',
      'categories',
      'tags',
      'website',
      'timezone',
      'status',
      'featured',
      'author',
      'date',
      'image',
      'excerpt',
    );
    await fc.assert(
      fc.asyncProperty(fc.dictionary(field, value, { maxKeys: 6 }), async (body) => {
        const before = await snapshot();
        const res = await svc.request('POST', '/events', { json: { ...minimal, ...body }, as: 'administrator' });
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) {
          expect(['rest_invalid_param', 'rest_missing_callback_param', 'rest_cannot_edit_others']).toContain(
            res.body.code,
          );
          expect(await snapshot()).toEqual(before);
        }
      }),
      { numRuns: 60 },
    );
  });
});
