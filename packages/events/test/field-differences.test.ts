import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

/** Issue 25: differences a second, independent recording of the plugin showed (not steps of the kits). */
describe.each(STORES)('events: the plugin answers of the second recording ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory, { timezone: 'America/New_York' });
  });
  afterAll(() => svc.close());

  // The plugin's create drops empty arguments (array_filter), so no `_EventURL` is stored and its permalink is shown;
  // an update stores what it is sent, '' included, and Post_Repository shows a stored `_EventURL` as it is.
  it("reports the event's own URL as the website of an event created with an empty one, and what an update stores", async () => {
    const e = await createEvent(svc, { title: 'Empty Website', website: '' });
    expect(e.website).toBe(e.url);
    expect((await svc.get(`/events/${e.id}`)).body.website).toBe(e.url);
    const set = await svc.request('PATCH', `/events/${e.id}`, {
      as: 'administrator',
      json: { website: 'https://empty.example.net' },
    });
    expect(set.body.website).toBe('https://empty.example.net');
    const cleared = await svc.request('PATCH', `/events/${e.id}`, { as: 'administrator', json: { website: '' } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.website).toBe('');
  });

  it('gives a pending or draft event no slug: by-slug answers 400 until it is published', async () => {
    for (const status of ['pending', 'draft']) {
      const title = `Unnamed ${status}`;
      const e = await createEvent(svc, { title, status });
      expect(e.slug).toBe('');
      const read = await svc.get(`/events/by-slug/unnamed-${status}`, { as: 'administrator' });
      expect(read.status).toBe(400);
      expect(read.body.code).toBe('rest_invalid_param');
      const upd = await svc.request('PATCH', `/events/by-slug/unnamed-${status}`, {
        as: 'administrator',
        json: { excerpt: 'x' },
      });
      expect(upd.status).toBe(404);
      const published = await svc.request('PATCH', `/events/${e.id}`, {
        as: 'administrator',
        json: { status: 'publish' },
      });
      expect(published.body.slug).toBe(`unnamed-${status}`);
      expect((await svc.get(`/events/by-slug/unnamed-${status}`)).body.id).toBe(e.id);
    }
  });

  it('names a pending event after the title it has when published, changed in that request or before', async () => {
    const a = await createEvent(svc, { title: 'First Working Title', status: 'pending' });
    const renamed = await svc.request('PATCH', `/events/${a.id}`, {
      as: 'administrator',
      json: { title: 'Final Title', status: 'publish' },
    });
    expect(renamed.body.slug).toBe('final-title');
    expect((await svc.get('/events/by-slug/first-working-title')).status).toBe(400);

    const b = await createEvent(svc, { title: 'Draft Name', status: 'draft' });
    await svc.request('PATCH', `/events/${b.id}`, { as: 'administrator', json: { title: 'Launch Name' } });
    const launched = await svc.request('PATCH', `/events/${b.id}`, {
      as: 'administrator',
      json: { status: 'publish' },
    });
    expect(launched.body.slug).toBe('launch-name');
    // A second event with that title gets WordPress's next suffix once published.
    const c = await createEvent(svc, { title: 'Other', status: 'pending' });
    const second = await svc.request('PATCH', `/events/${c.id}`, {
      as: 'administrator',
      json: { title: 'Launch Name', status: 'publish' },
    });
    expect(second.body.slug).toBe('launch-name-2');
  });

  it('keeps a slug sent for a draft when it is published, as WordPress keeps a sent post_name', async () => {
    const e = await createEvent(svc, { title: 'Chosen Slug Draft', slug: 'chosen-one', status: 'draft' });
    await svc.request('PATCH', `/events/${e.id}`, { as: 'administrator', json: { title: 'Renamed Draft' } });
    const published = await svc.request('PATCH', `/events/${e.id}`, {
      as: 'administrator',
      json: { status: 'publish' },
    });
    expect(published.body.slug).toBe('chosen-one');
  });
});
