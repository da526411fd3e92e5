import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, createEvent, startService, type Service } from './support/harness.ts';

// Issue 16 item 6: a venue or organizer appears in an event only to readers who could read it directly, and an
// author cannot link posts he cannot read (README, deliberate differences).
const SECRET_ADDRESS = '1 Secret Street';
const SECRET_EMAIL = 'hidden@example.test';
const WINDOW = { start_date: '2018-01-01', per_page: 50 };

describe.each(STORES)('linked drafts and private posts ($name)', (factory) => {
  let svc: Service;
  let venue: number;
  let privateVenue: number;
  let organizer: number;
  beforeAll(async () => {
    svc = await startService(factory);
    const v = await svc.post('/venues', {
      venue: 'Hidden Loft',
      address: SECRET_ADDRESS,
      city: 'Nowhere',
      status: 'draft',
    });
    const pv = await svc.post('/venues', { venue: 'Private Room', address: SECRET_ADDRESS, status: 'private' });
    const o = await svc.post('/organizers', { organizer: 'Quiet Org', email: SECRET_EMAIL, status: 'draft' });
    expect([v.status, pv.status, o.status]).toEqual([201, 201, 201]);
    [venue, privateVenue, organizer] = [v.body.id, pv.body.id, o.body.id];
  });
  afterAll(() => svc.close());

  it("refuses an author linking an administrator's draft or private venue or draft organizer", async () => {
    for (const fields of [
      { venue },
      { venue: privateVenue },
      { venue: { id: venue } },
      { organizer },
      { organizer: [organizer] },
    ]) {
      const res = await svc.request('POST', '/events', {
        as: 'author',
        form: { title: 'Borrowed', start_date: '2018-01-12 10:00', end_date: '2018-01-12 11:00', ...fields },
      });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
      expect(Object.keys(res.body.data.params)).toEqual([Object.keys(fields)[0]]);
    }
    const list = await svc.get('/events', { query: { ...WINDOW, search: 'Borrowed' } });
    expect(list.body.total).toBe(0);
  });

  it('does not reuse a same-name draft the author cannot read when he sends inline venue data', async () => {
    const res = await svc.request('POST', '/events', {
      as: 'author',
      form: {
        title: 'Namesake',
        start_date: '2018-01-12 10:00',
        end_date: '2018-01-12 11:00',
        venue: { venue: 'Hidden Loft', address: '2 Open Road' },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.venue.id).not.toBe(venue);
    expect(res.body.venue.address).toBe('2 Open Road');
    const original = await svc.get(`/venues/${venue}`, { as: 'administrator' });
    expect(original.body).toMatchObject({ venue: 'Hidden Loft', address: SECRET_ADDRESS, status: 'draft' });
  });

  it('hides a linked draft from readers who cannot read it, in single bodies, lists and json_ld', async () => {
    const event = await createEvent(svc, { title: 'Gala', venue, organizer: [organizer] });
    expect(event.venue.address).toBe(SECRET_ADDRESS);
    expect(event.organizer[0].email).toBe(SECRET_EMAIL);
    for (const as of [undefined, 'subscriber', 'author'] as const) {
      const single = await svc.get(`/events/${event.id}`, { as });
      expect(single.status).toBe(200);
      expect(single.body.venue).toEqual([]);
      expect(single.body.organizer).toEqual([]);
      expect(single.body.json_ld.location).toBeUndefined();
      expect(single.body.json_ld.organizer).toBeUndefined();
      const list = await svc.get('/events', { as, query: { ...WINDOW, include: event.id } });
      expect(list.body.events[0].id).toBe(event.id);
      expect(list.body.events[0].venue).toEqual([]);
      for (const text of [single.text, list.text]) {
        expect(text).not.toContain(SECRET_ADDRESS);
        expect(text).not.toContain(SECRET_EMAIL);
      }
    }
    // Readers who may read the drafts still see them, after the anonymous view was cached.
    for (const as of ['administrator', 'editor'] as const) {
      const single = await svc.get(`/events/${event.id}`, { as });
      expect(single.body.venue.address).toBe(SECRET_ADDRESS);
      expect(single.body.organizer[0].email).toBe(SECRET_EMAIL);
      expect(single.body.json_ld.location.address).toBeDefined();
      const list = await svc.get('/events', { as, query: { ...WINDOW, include: event.id } });
      expect(list.body.events[0].venue.address).toBe(SECRET_ADDRESS);
    }
    // Published, the venue is public again.
    expect(
      (await svc.request('PATCH', `/venues/${venue}`, { as: 'administrator', form: { status: 'publish' } })).status,
    ).toBe(200);
    expect((await svc.get(`/events/${event.id}`)).body.venue.address).toBe(SECRET_ADDRESS);
    expect(
      (await svc.request('PATCH', `/venues/${venue}`, { as: 'administrator', form: { status: 'draft' } })).status,
    ).toBe(200);
    expect((await svc.get(`/events/${event.id}`)).body.venue).toEqual([]);
  });

  it('lets an author link his own draft venue and see it, while anonymous readers do not', async () => {
    const own = await svc.post('/venues', { venue: 'Author Shed', address: '9 Own Lane', status: 'draft' }, 'author');
    expect(own.status).toBe(201);
    const res = await svc.request('POST', '/events', {
      as: 'author',
      form: {
        title: 'Shed party',
        status: 'publish',
        start_date: '2018-01-12 10:00',
        end_date: '2018-01-12 11:00',
        venue: own.body.id,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.venue.address).toBe('9 Own Lane');
    expect((await svc.get(`/events/${res.body.id}`)).body.venue).toEqual([]);
    expect((await svc.get(`/events/${res.body.id}`, { as: 'author' })).body.venue.address).toBe('9 Own Lane');
    expect((await svc.get(`/events/${res.body.id}`, { as: 'contributor' })).body.venue).toEqual([]);
  });
});
