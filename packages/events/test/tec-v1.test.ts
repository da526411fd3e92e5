import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, type RequestOptions, type Service } from './support/harness.ts';
import { EEA_SENTENCE } from '../src/tec-v1/gate.ts';

// Issue 25: `tec/v1` and `tribe/events/v1` are two views of one model. What one writes the other reads, through the
// same services and caches; the experimental-endpoint gate guards only `tec/v1`.

const TEC = '/wp-json/tec/v1';
const ack = { 'x-tec-eea': EEA_SENTENCE };

describe.each(STORES)('tec/v1 beside tribe/events/v1 ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory, { now: Date.UTC(2026, 0, 10, 12) });
  });
  afterAll(() => svc.close());
  const tec = (method: string, path: string, opts: RequestOptions = {}) =>
    svc.request(method, `${TEC}${path}`, { as: 'administrator', ...opts, headers: { ...ack, ...opts.headers } });

  it('reads in tribe/events/v1 a venue created in tec/v1, and the other way round', async () => {
    const created = await tec('POST', '/venues', {
      json: { title: 'Quay Hall', city: 'Portside', state_province: 'NSW', website: 'https://quay.example' },
    });
    expect(created.status).toBe(201);
    const asTribe = await svc.get(`/venues/${created.body.id}`);
    expect(asTribe.status).toBe(200);
    expect(asTribe.body).toMatchObject({
      id: created.body.id,
      venue: 'Quay Hall',
      city: 'Portside',
      stateprovince: 'NSW',
      website: 'https://quay.example',
    });

    const tribe = await svc.post('/venues', { venue: 'Harbour Loft', city: 'Leeds', country: 'United Kingdom' });
    const asTec = await tec('GET', `/venues/${tribe.body.id}`);
    expect(asTec.status).toBe(200);
    expect(asTec.body).toMatchObject({
      id: tribe.body.id,
      title: { rendered: 'Harbour Loft' },
      city: 'Leeds',
      country: 'United Kingdom',
      type: 'tribe_venue',
    });
  });

  it('shows an update made in one namespace in the other, cached reads included', async () => {
    const ev = await tec('POST', '/events', {
      json: { title: 'Jazz Night', start_date: '2032-03-10 19:00:00', end_date: '2032-03-10 22:30:00', cost: '25' },
    });
    expect(ev.status).toBe(201);
    // Both namespaces read it once, so both caches hold it, then tribe/events/v1 changes it.
    expect((await svc.get(`/events/${ev.body.id}`)).body.title).toBe('Jazz Night');
    expect((await tec('GET', `/events/${ev.body.id}`, { as: undefined })).body.title.rendered).toBe('Jazz Night');
    expect(
      (await svc.request('PATCH', `/events/${ev.body.id}`, { json: { title: 'Late Jazz Night' }, as: 'administrator' }))
        .status,
    ).toBe(200);
    const afterTribe = await tec('GET', `/events/${ev.body.id}`, { as: undefined });
    expect(afterTribe.body).toMatchObject({
      title: { rendered: 'Late Jazz Night' },
      start_date: '2032-03-10 19:00:00',
      duration: '12600',
      cost: '$25',
    });
    expect((await tec('PATCH', `/events/${ev.body.id}`, { json: { end_date: '2032-03-10 23:00:00' } })).status).toBe(
      200,
    );
    expect((await svc.get(`/events/${ev.body.id}`)).body.end_date).toBe('2032-03-10 23:00:00');
  });

  it('builds a kept body again once is_now or is_past would change', async () => {
    const start = svc.clock.now + 3_600_000;
    const wall = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
    const ev = await tec('POST', '/events', {
      json: { title: 'Soon', start_date: wall(start), end_date: wall(start + 3_600_000) },
    });
    const read = async () => (await tec('GET', `/events/${ev.body.id}`, { as: undefined })).body;
    expect(await read()).toMatchObject({ is_now: false, is_past: false });
    svc.clock.now = start + 60_000;
    expect(await read()).toMatchObject({ is_now: true, is_past: false });
    svc.clock.now = start + 7_200_000;
    expect(await read()).toMatchObject({ is_now: false, is_past: true });
    svc.clock.now = Date.UTC(2026, 0, 10, 12);
  });

  it('lists in tec/v1 what tribe/events/v1 created, with WordPress paging headers', async () => {
    for (const day of ['11', '12', '13']) {
      await svc.post('/events', {
        title: `Market ${day}`,
        start_date: `2032-04-${day} 09:00:00`,
        end_date: `2032-04-${day} 12:00:00`,
      });
    }
    const page = await tec('GET', '/events', { query: { search: 'Market', per_page: 2 }, as: undefined });
    expect(page.status).toBe(200);
    expect(page.body.map((e: { title: { rendered: string } }) => e.title.rendered)).toEqual(['Market 11', 'Market 12']);
    expect(page.headers.get('x-wp-total')).toBe('3');
    expect(page.headers.get('x-wp-totalpages')).toBe('2');
    expect(page.headers.get('link')).toBe(
      `<http://wordpress.test${TEC}/events?search=Market&per_page=2&page=2>; rel="next"`,
    );
  });

  it('refuses tec/v1 requests without the acknowledgement, but not tribe/events/v1 nor /docs', async () => {
    const refused = await svc.get(`${TEC}/events`);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('missing_experimental_endpoint_acknowledgement');
    // A cached acknowledged answer is never handed to a request without the header.
    expect((await svc.get(`${TEC}/venues`, { headers: ack })).status).toBe(200);
    expect((await svc.get(`${TEC}/venues`)).status).toBe(400);
    expect(
      (await svc.get(`${TEC}/venues`, { headers: { 'x-tec-eea': `  ${EEA_SENTENCE.toUpperCase()} ` } })).status,
    ).toBe(200);
    expect((await svc.get('/events')).status).toBe(200);
    const docs = await svc.get(`${TEC}/docs`);
    expect(docs.status).toBe(200);
    expect(docs.body.servers).toEqual([{ url: `http://wordpress.test${TEC}` }]);
  });

  it('refuses an author that names no user, as tribe/events/v1 does', async () => {
    const res = await tec('POST', '/venues', { json: { title: "Nobody's Hall", author: 999_999 } });
    expect(res.status).toBe(400);
    expect(res.body.data.params).toHaveProperty('author');
    expect((await tec('GET', '/venues', { query: { search: 'Nobody' } })).body).toEqual([]);
  });

  it('trashes, refuses a second trash with 410, and deletes for good with force', async () => {
    const v = await tec('POST', '/organizers', { json: { title: 'Guild', email: 'hello@guild.example' } });
    expect((await tec('DELETE', `/organizers/${v.body.id}`)).body).toEqual([]);
    const again = await tec('DELETE', `/organizers/${v.body.id}`);
    expect(again.status).toBe(410);
    expect(again.body).toEqual({ error: 'The entity has already been trashed.' });
    expect((await tec('DELETE', `/organizers/${v.body.id}`, { query: { force: 'true' } })).status).toBe(200);
    // Gone from both namespaces: tec/v1 answers a missing id 403 (its permission check), tribe/events/v1 400.
    expect((await tec('GET', `/organizers/${v.body.id}`)).body.code).toBe('rest_forbidden');
    expect((await svc.get(`/organizers/${v.body.id}`, { as: 'administrator' })).body.code).toBe('rest_invalid_param');
  });
});
