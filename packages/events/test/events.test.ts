import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

describe.each(STORES)('events: create, read, update, delete ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory, { timezone: 'America/New_York' });
  });
  afterAll(() => svc.close());

  it('creates an event with 201 and returns the plugin body in key order, json_ld only on GET', async () => {
    const e = await createEvent(svc, {
      title: 'Event 01',
      description: 'Event 01 description',
      start_date: '2018-01-12 10:00:00',
      end_date: '2018-01-12 12:30:05',
    });
    expect(Object.keys(e)).toEqual([
      'id',
      'global_id',
      'global_id_lineage',
      'author',
      'status',
      'date',
      'date_utc',
      'modified',
      'modified_utc',
      'url',
      'rest_url',
      'title',
      'description',
      'excerpt',
      'slug',
      'image',
      'all_day',
      'start_date',
      'start_date_details',
      'end_date',
      'end_date_details',
      'utc_start_date',
      'utc_start_date_details',
      'utc_end_date',
      'utc_end_date_details',
      'timezone',
      'timezone_abbr',
      'cost',
      'cost_details',
      'website',
      'show_map',
      'show_map_link',
      'hide_from_listings',
      'sticky',
      'featured',
      'categories',
      'tags',
      'venue',
      'organizer',
      'custom_fields',
    ]);
    expect(e).toMatchObject({
      author: String(svc.userIds.administrator),
      status: 'publish',
      title: 'Event 01',
      description: '<p>Event 01 description</p>',
      excerpt: '',
      slug: 'event-01',
      image: false,
      url: 'http://wordpress.test/event/event-01/',
      rest_url: `${svc.rest}/events/${e.id}`,
      global_id: `wordpress.test?id=${e.id}`,
      global_id_lineage: [`wordpress.test?id=${e.id}`],
      start_date: '2018-01-12 10:00:00',
      end_date: '2018-01-12 12:30:05',
      utc_start_date: '2018-01-12 15:00:00',
      start_date_details: { year: '2018', month: '01', day: '12', hour: '10', minutes: '00', seconds: '00' },
      end_date_details: { year: '2018', month: '01', day: '12', hour: '12', minutes: '30', seconds: '05' },
      timezone: 'America/New_York',
      timezone_abbr: 'EST',
      website: 'http://wordpress.test/event/event-01/',
      show_map: false,
      show_map_link: false,
      hide_from_listings: false,
      sticky: false,
      featured: false,
      categories: [],
      tags: [],
      venue: [],
      organizer: [],
      custom_fields: [],
    });
    const got = await svc.get(`/events/${e.id}`);
    expect(got.status).toBe(200);
    const { json_ld: jsonLd, ...rest } = got.body;
    expect(rest).toEqual(e);
    expect(jsonLd).toEqual({
      '@context': 'http://schema.org',
      '@type': 'Event',
      name: 'Event 01',
      description: '&lt;p&gt;Event 01 description&lt;/p&gt;\\n',
      url: 'http://wordpress.test/event/event-01/',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      eventStatus: 'https://schema.org/EventScheduled',
      startDate: '2018-01-12T10:00:00-05:00',
      endDate: '2018-01-12T12:30:05-05:00',
      performer: 'Organization',
    });
  });

  it('reads an event by slug', async () => {
    const e = await createEvent(svc, { title: 'By slug' });
    expect((await svc.get('/events/by-slug/by-slug')).body.id).toBe(e.id);
  });

  it('parses natural-language dates in the event time zone and snaps all-day events', async () => {
    const e = await createEvent(svc, {
      title: 'All day',
      start_date: 'tomorrow 9am',
      end_date: '+5 days 11am',
      all_day: true,
      timezone: 'Europe/Paris',
    });
    expect(e).toMatchObject({
      all_day: true,
      timezone: 'Europe/Paris',
      timezone_abbr: 'CET',
      start_date: '2018-01-11 00:00:00',
      end_date: '2018-01-15 23:59:59',
      utc_start_date: '2018-01-10 23:00:00',
    });
    const ts = await createEvent(svc, {
      title: 'Timestamps',
      start_date: String(Date.UTC(2018, 0, 20, 15) / 1000),
      end_date: '2018-01-20 4pm',
      timezone: 'UTC',
    });
    expect(ts).toMatchObject({ start_date: '2018-01-20 15:00:00', end_date: '2018-01-20 16:00:00' });
  });

  it('sets the end equal to the start when the end comes first', async () => {
    const e = await createEvent(svc, {
      title: 'Backwards',
      start_date: '2018-01-12 10:00:00',
      end_date: '2018-01-12 09:00:00',
    });
    expect(e.end_date).toBe('2018-01-12 10:00:00');
  });

  it('reads date and date_utc as the post date', async () => {
    const e = await createEvent(svc, { title: 'Dated', date_utc: '2017-06-01 12:00:00' });
    expect(e).toMatchObject({ date_utc: '2017-06-01 12:00:00', date: '2017-06-01 08:00:00' });
  });

  it('formats cost like the plugin and infers the symbol and position', async () => {
    expect((await createEvent(svc, { title: 'c1', cost: '23' })).cost).toBe('$23');
    const c2 = await createEvent(svc, { title: 'c2', cost: '20$' });
    expect(c2.cost).toBe('20$');
    expect(c2.cost_details).toEqual({
      currency_symbol: '$',
      currency_code: '',
      currency_position: 'postfix',
      values: ['20'],
    });
    const c3 = await createEvent(svc, { title: 'c3', cost: ['0$', '20$', '30$'] });
    expect(c3.cost).toBe('Free – 30$');
    expect(c3.cost_details.values).toEqual(['0', '20', '30']);
    expect((await createEvent(svc, { title: 'c4', cost: '25,55' })).cost_details.values).toEqual(['25.55']);
  });

  it('stores presentation flags and reads sticky from menu order', async () => {
    const e = await createEvent(svc, {
      title: 'Flags',
      show_map: 'true',
      show_map_link: '1',
      hide_from_listings: 1,
      sticky: true,
      featured: 'true',
      website: 'http://example.com',
    });
    expect(e).toMatchObject({
      show_map: true,
      show_map_link: true,
      hide_from_listings: true,
      sticky: true,
      featured: true,
      website: 'http://example.com',
    });
  });

  // The plugin's create drops empty arguments (PHP array_filter), so no `_EventURL` is stored and the event's own
  // permalink is its website; an update stores the empty value and reports it (recorded against plugin 6.17.2).
  it('reports its own URL as the website of an event created with an empty one, and "" after an update empties it', async () => {
    const empty = await createEvent(svc, { title: 'No site', website: '' });
    expect(empty.website).toBe(empty.url);
    const e = await createEvent(svc, { title: 'Had a site', website: 'http://a.test' });
    const put = await svc.request('PATCH', `/events/${e.id}`, { json: { website: '' }, as: 'administrator' });
    expect(put.status).toBe(200);
    expect(put.body.website).toBe('');
  });

  // WordPress gives a draft or pending post no slug (post_name stays empty) until it is published, and then makes
  // one from the title it has at that moment.
  it('names a pending event by no slug, and publishing it takes the slug of its title then', async () => {
    const created = await svc.request('POST', '/events', {
      json: {
        title: 'Awaiting Approval Slug',
        status: 'pending',
        start_date: '2032-03-02 09:00:00',
        end_date: '2032-03-02 10:00:00',
      },
      as: 'administrator',
    });
    expect(created.status).toBe(201);
    expect(created.body.slug).toBe('');
    expect((await svc.request('GET', '/events/by-slug/awaiting-approval-slug', { as: 'administrator' })).status).toBe(
      400,
    );
    const published = await svc.request('PATCH', `/events/${created.body.id}`, {
      json: { title: 'Approved At Last', status: 'publish' },
      as: 'administrator',
    });
    expect(published.status).toBe(200);
    expect(published.body.slug).toBe('approved-at-last');
    const bySlug = await svc.request('GET', '/events/by-slug/approved-at-last', { as: 'administrator' });
    expect(bySlug.status).toBe(200);
    expect(bySlug.body.id).toBe(created.body.id);
  });

  it('ignores generated fields a client sends', async () => {
    const e = await createEvent(svc, {
      title: 'Generated',
      url: 'http://evil.test/',
      rest_url: 'x',
      utc_start_date: '2000-01-01 00:00:00',
      timezone_abbr: 'XYZ',
      id: 5,
    });
    expect(e.url).toBe('http://wordpress.test/event/generated/');
    expect(e.utc_start_date).not.toBe('2000-01-01 00:00:00');
    expect(e.timezone_abbr).toBe('EST');
  });

  it('creates categories and tags by name, reuses them by id, and clears them with an empty value', async () => {
    const first = await createEvent(svc, { title: 'Termed', categories: ['Cat 1'], tags: 'tag-a,Tag B' });
    const catId = first.categories[0].id;
    expect(first.categories[0]).toMatchObject({
      name: 'Cat 1',
      slug: 'cat-1',
      taxonomy: 'tribe_events_cat',
      description: '',
      parent: 0,
      count: 1,
      filter: 'raw',
      term_group: 0,
    });
    expect(first.tags.map((t: { name: string }) => t.name)).toEqual(['Tag B', 'tag-a']);
    const second = await createEvent(svc, { title: 'Termed 2', categories: [catId, 'cat2', 99999] });
    expect(second.categories.map((c: { id: number; name: string }) => c.name)).toEqual(['Cat 1', 'cat2']);
    expect(second.categories[0].id).toBe(catId);
    const cleared = await svc.post(`/events/${second.id}`, { categories: '' });
    expect(cleared.body.categories).toEqual([]);
    const kept = await svc.post(`/events/${first.id}`, { title: 'Termed again' });
    expect(kept.body.categories[0].id).toBe(catId);
  });

  it('links venues and organizers by id, {id}, inline data and mixed lists, keeping the order', async () => {
    const v = (await svc.post('/venues', { venue: 'Linked venue' })).body;
    const o1 = (await svc.post('/organizers', { organizer: 'Org one' })).body;
    const o2 = (await svc.post('/organizers', { organizer: 'Org two' })).body;
    const e = await createEvent(svc, {
      title: 'Linked',
      venue: v.id,
      organizer: [{ organizer: 'Inline A' }, { id: o1.id }, o2.id, { organizer: 'Inline C' }],
    });
    expect(e.venue.id).toBe(v.id);
    expect(e.organizer.map((o: { organizer: string }) => o.organizer)).toEqual([
      'Inline A',
      'Org one',
      'Org two',
      'Inline C',
    ]);
    const inline = await createEvent(svc, {
      title: 'Inline venue',
      venue: { venue: 'Fresh hall', city: 'Rome' },
      organizer: `${o1.id},${o2.id}`,
    });
    expect(inline.venue).toMatchObject({ venue: 'Fresh hall', city: 'Rome' });
    expect(inline.organizer).toHaveLength(2);
    const json = await svc.request('POST', '/events', {
      json: {
        title: 'JSON',
        start_date: '2018-01-12 10:00',
        end_date: '2018-01-12 11:00',
        venue: { id: v.id },
        organizer: { id: o1.id },
      },
      as: 'administrator',
    });
    expect(json.status).toBe(201);
    expect(json.body.venue.id).toBe(v.id);
  });

  it('rejects a venue or organizer that is not one, and inline data without a name', async () => {
    const e = await createEvent(svc, { title: 'Not linked' });
    for (const form of [
      { venue: e.id },
      { venue: { city: 'Nowhere' } },
      { organizer: [e.id] },
      { organizer: [{ phone: '1' }] },
      { venue: { venue: 'X', website: 'foo' } },
    ]) {
      const res = await svc.request('POST', '/events', {
        form: { title: 'bad', start_date: 'tomorrow', end_date: 'tomorrow', ...form },
        as: 'administrator',
      });
      expect(res.status, JSON.stringify(form)).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
    }
  });

  it('updates only the fields sent with POST, PUT and PATCH alike', async () => {
    const o = (await svc.post('/organizers', { organizer: 'Kept organizer' })).body;
    const e = await createEvent(svc, {
      title: 'Partial',
      cost: '10',
      featured: true,
      organizer: o.id,
      website: 'http://a.test',
    });
    const put = await svc.request('PUT', `/events/${e.id}`, { form: { title: 'Partial 2' }, as: 'administrator' });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      title: 'Partial 2',
      cost: '$10',
      featured: true,
      website: 'http://a.test',
      start_date: e.start_date,
    });
    expect(put.body.organizer[0].id).toBe(o.id);
    const patch = await svc.request('PATCH', `/events/${e.id}`, {
      json: { organizer: [], start_date: '2018-02-01 10:00:00', end_date: '2018-02-01 11:00:00' },
      as: 'administrator',
    });
    expect(patch.body).toMatchObject({ organizer: [], start_date: '2018-02-01 10:00:00', title: 'Partial 2' });
    const byslug = await svc.request('POST', '/events/by-slug/partial', {
      form: { excerpt: 'Short' },
      as: 'administrator',
    });
    expect(byslug.body.excerpt).toBe('<p>Short</p>');
  });

  it('moves a deleted event to the trash, then answers 410 and 403 event-no-longer-available', async () => {
    const e = await createEvent(svc, { title: 'Trash me' });
    const del = await svc.request('DELETE', `/events/${e.id}`, { as: 'administrator', query: { force: 'true' } });
    expect(del.status).toBe(200);
    expect(del.body.status).toBe('trash');
    expect(del.body.slug).toBe('trash-me__trashed');
    const again = await svc.request('DELETE', `/events/${e.id}`, { as: 'administrator' });
    expect(again.status).toBe(410);
    expect(again.body).toEqual({
      code: 'event-is-in-trash',
      message: 'The event is already trashed',
      data: { status: 410 },
    });
    const get = await svc.get(`/events/${e.id}`, { as: 'administrator' });
    expect(get.status).toBe(403);
    expect(get.body.code).toBe('event-no-longer-available');
  });

  it('answers 404 rest-event-not-found for unknown ids and 400 for posts that are not events', async () => {
    for (const id of [0, 999999]) {
      const res = await svc.get(`/events/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        code: 'rest-event-not-found',
        message: `Event with ID ${id} does not exist.`,
        data: { status: 404 },
      });
    }
    const venue = (await svc.post('/venues', { venue: 'Not an event' })).body;
    const res = await svc.get(`/events/${venue.id}`);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest-invalid-event-id');
    const upd = await svc.request('POST', '/events/999999', { form: { title: 'x' }, as: 'administrator' });
    expect(upd.status).toBe(404);
    const anon = await svc.request('DELETE', '/events/999999');
    expect(anon.status).toBe(401);
  });

  it('answers 400 rest_invalid_param for an unknown slug, and 404 to an update of one, as the plugin', async () => {
    const res = await svc.get('/events/by-slug/no-such-event');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_param');
    // The plugin validates the slug of reads only; an update reaches its handler, which finds no event (issue 25).
    for (const method of ['PATCH', 'PUT', 'POST'] as const) {
      const upd = await svc.request(method, '/events/by-slug/no-such-event', {
        as: 'administrator',
        json: { title: 'x' },
      });
      expect(upd.status).toBe(404);
      expect(upd.body.code).toBe('rest-event-not-found');
    }
  });

  it('hides drafts from anonymous readers with 403 event-not-accessible', async () => {
    const e = await createEvent(svc, { title: 'Draft one', status: 'draft' });
    expect((await svc.get(`/events/${e.id}`)).body.code).toBe('event-not-accessible');
    expect((await svc.get(`/events/${e.id}`, { as: 'subscriber' })).status).toBe(403);
    expect((await svc.get(`/events/${e.id}`, { as: 'editor' })).status).toBe(200);
  });

  it('gives colliding titles WordPress-style slug suffixes', async () => {
    const a = await createEvent(svc, { title: 'Same title' });
    const b = await createEvent(svc, { title: 'Same title' });
    expect([a.slug, b.slug]).toEqual(['same-title', 'same-title-2']);
  });
});
