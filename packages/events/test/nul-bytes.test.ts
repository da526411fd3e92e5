import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, createEvent, countWritten, type Service } from './support/harness.ts';

const REST = '/wp-json/tribe/events/v1';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const minimal = { title: 'Nul', start_date: '2018-01-12 10:00:00', end_date: '2018-01-12 11:00:00' };

describe.each(STORES)('a NUL character is refused with 400 the same way on both stores ($name)', (factory) => {
  let svc: Service;
  let eventId: number;
  beforeAll(async () => {
    svc = await startService(factory);
    eventId = (await createEvent(svc, { title: 'Existing', venue: { venue: 'Hall' } })).id;
  });
  afterAll(() => svc.close());

  const expectNul = (
    res: { status: number; body: { code: string; data: { params: Record<string, string> } } },
    param: string,
  ) => {
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    expect(res.body.data.params[param]).toBe(`${param} contains a NUL character.`);
  };

  it('in text filters of every list', async () => {
    for (const path of ['events', 'venues', 'organizers', 'categories', 'tags']) {
      expectNul(await svc.request('GET', `${REST}/${path}?search=a%00b`), 'search');
    }
    expectNul(await svc.request('GET', `${REST}/events?categories[]=a%00b`), 'categories');
    expectNul(await svc.request('GET', `${REST}/categories?slug=a%00b`), 'slug');
  });

  it('in slugs in the path and in bodies', async () => {
    expectNul(await svc.request('GET', `${REST}/events/by-slug/a%00b`), 'slug');
    expectNul(
      await svc.request('POST', `/events/${eventId}`, { json: { slug: 'a\u0000b' }, as: 'administrator' }),
      'slug',
    );
  });

  it('in JSON and form bodies, nested values included, writing nothing', async () => {
    const before = await countWritten(svc);
    expectNul(
      await svc.request('POST', '/events', { json: { ...minimal, title: 'a\u0000b' }, as: 'administrator' }),
      'title',
    );
    expectNul(
      await svc.request('POST', '/events', { json: { ...minimal, venue: { venue: 'V\u0000' } }, as: 'administrator' }),
      'venue',
    );
    expectNul(
      await svc.request('POST', '/events', {
        json: { ...minimal, organizer: [{ organizer: 'O', email: 'a@b.c\u0000' }] },
        as: 'administrator',
      }),
      'organizer',
    );
    expectNul(
      await svc.request('POST', '/venues', { json: { venue: 'V', city: '\u0000' }, as: 'administrator' }),
      'city',
    );
    const form = 'title=a%00b&start_date=2018-01-12&end_date=2018-01-13';
    expectNul(await svc.request('POST', '/events', { body: form, headers: FORM, as: 'administrator' }), 'title');
    expectNul(
      await svc.request('POST', '/categories', { body: 'name=x%00', headers: FORM, as: 'administrator' }),
      'name',
    );
    expect(await countWritten(svc)).toEqual(before);
  });

  it('in a login: an unknown user (401), not a 500', async () => {
    const res = await svc.request('GET', '/events', { as: { login: 'admin\u0000istrator', password: 'x' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_username');
  });
});
