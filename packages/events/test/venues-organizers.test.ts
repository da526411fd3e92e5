import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

describe.each(STORES)('venues and organizers ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());

  const fullVenue = {
    venue: 'Full venue',
    description: 'A venue description',
    address: '100, Avenue du Temple',
    city: 'Paris',
    country: 'France',
    province: 'Ile de France',
    state: 'IDF',
    zip: '75003',
    phone: '223345',
    website: 'http://venue.test',
  };

  it('creates a venue with 201, derives stateprovince and returns the plugin keys', async () => {
    const res = await svc.request('POST', '/venues', {
      form: { ...fullVenue, stateProvince: 'ignored', timezone: 'Ignored/Zone' },
      as: 'administrator',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        'address',
        'author',
        'city',
        'country',
        'date',
        'date_utc',
        'description',
        'global_id',
        'global_id_lineage',
        'id',
        'modified',
        'modified_utc',
        'phone',
        'province',
        'show_map',
        'show_map_link',
        'slug',
        'state',
        'stateprovince',
        'status',
        'url',
        'venue',
        'website',
        'zip',
      ].sort(),
    );
    expect(res.body).toMatchObject({
      venue: 'Full venue',
      description: '<p>A venue description</p>',
      stateprovince: 'Ile de France',
      show_map: true,
      show_map_link: true,
      url: 'http://wordpress.test/venue/full-venue/',
    });
    // The plugin's Place: every text key present, `url` always empty, the website as sameAs.
    expect((await svc.get(`/venues/${res.body.id}`)).body.json_ld).toEqual({
      '@type': 'Place',
      name: 'Full venue',
      description: '&lt;p&gt;A venue description&lt;/p&gt;\\n',
      url: '',
      address: {
        '@type': 'PostalAddress',
        streetAddress: fullVenue.address,
        addressLocality: fullVenue.city,
        addressRegion: 'Ile de France',
        postalCode: fullVenue.zip,
        addressCountry: fullVenue.country,
      },
      telephone: fullVenue.phone,
      sameAs: fullVenue.website,
    });
    const us = await svc.post('/venues', { venue: 'US venue', country: 'US', state: 'NY', province: 'P' });
    expect(us.body.stateprovince).toBe('NY');
  });

  it('reads show_map "false" as false and rejects non-string show_map in JSON', async () => {
    const res = await svc.post('/venues', { venue: 'No map', show_map: 'false', show_map_link: 'false' });
    expect(res.body).toMatchObject({ show_map: false, show_map_link: false });
    const json = await svc.request('POST', '/venues', {
      json: { venue: 'JSON map', show_map: true },
      as: 'administrator',
    });
    expect(json.status).toBe(400);
    expect(json.body.data.params.show_map).toBe('show_map is not of type string.');
  });

  it('returns the existing venue on a duplicate create, case-insensitively, with 201', async () => {
    const a = await svc.post('/venues', { venue: 'A venue', description: 'A venue description' });
    const b = await svc.post('/venues', { venue: 'A venue', description: 'A venue description' });
    const c = await svc.post('/venues', { venue: 'A venue', phone: '555' });
    const d = await svc.post('/venues', { venue: 'a venue', description: 'a venue description', city: 'Elsewhere' });
    expect(b.status).toBe(201);
    expect(new Set([a.body.id, b.body.id, c.body.id, d.body.id]).size).toBe(1);
    expect(d.body.city).toBe('Elsewhere');
    const o1 = await svc.post('/organizers', { organizer: 'Same org', email: 'a@a.test' });
    const o2 = await svc.post('/organizers', { organizer: 'same ORG', phone: '1' });
    expect(o2.body.id).toBe(o1.body.id);
  });

  it('keeps unsent fields on update, clears sent empty ones and drops them from the body', async () => {
    const o = (
      await svc.post('/organizers', {
        organizer: 'Org full',
        email: 'x@x.test',
        phone: '123',
        website: 'http://o.test',
      })
    ).body;
    const kept = await svc.request('PUT', `/organizers/${o.id}`, {
      form: { organizer: 'Org renamed' },
      as: 'administrator',
    });
    expect(kept.body).toMatchObject({
      organizer: 'Org renamed',
      email: 'x@x.test',
      phone: '123',
      website: 'http://o.test',
    });
    const cleared = await svc.request('PATCH', `/organizers/${o.id}`, {
      form: { email: '', phone: '', website: '' },
      as: 'administrator',
    });
    expect(cleared.body).not.toHaveProperty('email');
    expect(cleared.body).not.toHaveProperty('phone');
    expect(cleared.body).not.toHaveProperty('website');
    const v = (await svc.post('/venues', fullVenue)).body;
    const vc = await svc.post(`/venues/${v.id}`, { address: '', city: '', zip: '' });
    expect(vc.body).not.toHaveProperty('address');
    expect(vc.body).not.toHaveProperty('city');
    expect(vc.body.phone).toBe('223345');
  });

  it('allows renaming to another record’s name', async () => {
    const a = (await svc.post('/organizers', { organizer: 'Rename A' })).body;
    await svc.post('/organizers', { organizer: 'Rename B' });
    expect((await svc.post(`/organizers/${a.id}`, { organizer: 'Rename B' })).body.organizer).toBe('Rename B');
  });

  it('answers 400 for ids and slugs that are not venues or organizers', async () => {
    const e = await createEvent(svc, { title: 'Not a venue' });
    for (const path of [
      '/venues/999999',
      `/venues/${e.id}`,
      '/organizers/999999',
      '/venues/by-slug/nope',
      '/organizers/by-slug/nope',
    ]) {
      const res = await svc.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
    }
    expect((await svc.request('DELETE', '/venues/999999', { as: 'administrator' })).status).toBe(400);
  });

  it('validates venue and organizer write fields', async () => {
    const bad = [
      ['/venues', { venue: '' }],
      ['/venues', { venue: 'x', author: 23 }],
      ['/venues', { venue: 'x', author: 'foo' }],
      ['/venues', { venue: 'x', date: 'foo' }],
      ['/venues', { venue: 'x', status: 'kinda_thinking_about_it' }],
      ['/venues', { venue: 'x', website: 'foo' }],
      ['/organizers', { organizer: '' }],
      ['/organizers', { organizer: 'x', website: 'nope' }],
    ] as const;
    for (const [path, form] of bad) {
      const res = await svc.post(path, form);
      expect(res.status, JSON.stringify(form)).toBe(400);
      expect(res.body.code).toBe('rest_invalid_param');
    }
    const missing = await svc.post('/venues', { city: 'x' });
    expect(missing.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): venue',
      data: { status: 400, params: ['venue'] },
    });
    expect((await svc.post('/organizers', { organizer: 'Any email', email: 'not-an-email' })).status).toBe(201);
    expect((await svc.post('/venues', { venue: 'Timestamped', date: '1514800000' })).body.date_utc).toBe(
      '2018-01-01 09:46:40',
    );
  });

  it('moves a deleted venue to the trash, unlinks it from events, and answers 410 the second time', async () => {
    const v = (await svc.post('/venues', { venue: 'Doomed venue' })).body;
    const e = await createEvent(svc, { title: 'At doomed venue', venue: v.id });
    const del = await svc.request('DELETE', `/venues/${v.id}`, { as: 'administrator' });
    expect(del.status).toBe(200);
    expect(del.body.status).toBe('trash');
    expect((await svc.get(`/events/${e.id}`)).body.venue).toEqual([]);
    const again = await svc.request('DELETE', `/venues/${v.id}`, { as: 'administrator' });
    expect(again.body).toEqual({
      code: 'venue-is-in-trash',
      message: 'The venue is already trashed',
      data: { status: 410 },
    });
    expect((await svc.get(`/venues/${v.id}`)).status).toBe(403);
    expect((await svc.get(`/venues/${v.id}`, { as: 'editor' })).status).toBe(200);
    const o = (await svc.post('/organizers', { organizer: 'Doomed org' })).body;
    await svc.request('DELETE', `/organizers/${o.id}`, { as: 'administrator' });
    expect((await svc.request('DELETE', `/organizers/${o.id}`, { as: 'administrator' })).body.code).toBe(
      'organizer-is-in-trash',
    );
  });

  it('hides draft venues from anonymous readers with 403 venue-not-accessible', async () => {
    const v = (await svc.post('/venues', { venue: 'Draft venue', status: 'draft' })).body;
    const res = await svc.get(`/venues/${v.id}`);
    expect(res.body).toEqual({
      code: 'venue-not-accessible',
      message: 'The requested venue is not accessible',
      data: { status: 403 },
    });
    expect((await svc.get(`/venues/by-slug/${v.slug}`, { as: 'editor' })).status).toBe(200);
  });
});

describe.each(STORES)('venue and organizer lists ($name)', (factory) => {
  let svc: Service;
  const v: Record<string, number> = {};
  beforeAll(async () => {
    svc = await startService(factory);
    const mk = async (key: string, form: Record<string, unknown>) => {
      v[key] = (await svc.post('/venues', form)).body.id;
    };
    await mk('london1', { venue: 'London one', city: 'London', zip: '223345' });
    await mk('london2', { venue: 'London two', city: 'London', phone: '223345' });
    await mk('paris', { venue: 'Paris', address: '100, Avenue du Temple', province: 'Ile de', country: 'France' });
    await mk('draft', { venue: 'Draft', status: 'draft' });
    await mk('lonely', { venue: 'Lonely' });
    await createEvent(svc, {
      title: 'Past at london1',
      venue: v.london1,
      start_date: '2018-01-01 10:00',
      end_date: '2018-01-01 11:00',
    });
    await createEvent(svc, {
      title: 'Future at paris',
      venue: v.paris,
      start_date: '2018-02-01 10:00',
      end_date: '2018-02-01 11:00',
    });
    await createEvent(svc, {
      title: 'Draft at london2',
      venue: v.london2,
      status: 'draft',
      start_date: '2018-02-01 10:00',
      end_date: '2018-02-01 11:00',
    });
    for (const [name, extra] of [
      ['one', { phone: '1111', email: 'one@common.com', website: 'http://one.com' }],
      ['two', { phone: '1111', email: 'two@common.com' }],
      ['three', { email: 'three@three.com' }],
    ] as const) {
      await svc.post('/organizers', { organizer: `Org ${name}`, ...extra });
    }
  });
  afterAll(() => svc.close());

  const ids = (res: { body: { venues?: { id: number }[]; organizers?: { id: number }[] } }) =>
    (res.body.venues ?? res.body.organizers ?? []).map((x) => x.id).sort((a, b) => a - b);
  const sorted = (...xs: number[]) => xs.sort((a, b) => a - b);

  it('lists published venues newest first with the plugin envelope and headers', async () => {
    const res = await svc.get('/venues');
    expect(Object.keys(res.body)).toEqual(['venues', 'rest_url', 'total', 'total_pages']);
    expect(res.body.total).toBe(4);
    expect(res.headers.get('x-tec-total')).toBe('4');
    expect(res.body.rest_url).toBe(`${svc.rest}/venues/?page=1&per_page=10&status=publish`);
    expect((await svc.get('/venues', { as: 'editor' })).body.total).toBe(5);
    expect((await svc.get('/venues', { query: { status: 'draft' } })).status).toBe(400);
  });

  it('matches searches when one field holds every token', async () => {
    expect(ids(await svc.get('/venues', { query: { search: 'london' } }))).toEqual(sorted(v.london1!, v.london2!));
    expect(ids(await svc.get('/venues', { query: { search: 'temple avenue' } }))).toEqual([v.paris]);
    expect(ids(await svc.get('/venues', { query: { search: '223345' } }))).toEqual(sorted(v.london1!, v.london2!));
    const none = await svc.get('/venues', { query: { search: 'zzz' } });
    expect(none.body).toMatchObject({ venues: [], total: 0, total_pages: 0 });
    for (const [q, n] of [
      ['1111', 2],
      ['common.com', 2],
      ['@common.com', 2],
      ['three@three.com', 1],
      ['http://one.com', 1],
    ] as const) {
      expect((await svc.get('/organizers', { query: { search: q } })).body.total, q).toBe(n);
    }
  });

  it('filters by event, has_events and only_with_upcoming', async () => {
    const paris = (await svc.get('/events', { query: { search: 'paris' } })).body.events[0];
    expect(ids(await svc.get('/venues', { query: { event: paris.id } }))).toEqual([v.paris]);
    expect((await svc.get('/venues', { query: { event: 999999 } })).status).toBe(400);
    expect(ids(await svc.get('/venues', { query: { has_events: 'true' } }))).toEqual(sorted(v.london1!, v.paris!));
    expect(ids(await svc.get('/venues', { query: { has_events: '0' } }))).toEqual(sorted(v.london2!, v.lonely!));
    expect(ids(await svc.get('/venues', { query: { only_with_upcoming: 'true' } }))).toEqual([v.paris]);
    expect(ids(await svc.get('/venues', { query: { only_with_upcoming: 'true' }, as: 'editor' }))).toEqual(
      sorted(v.paris!, v.london2!),
    );
    expect((await svc.get('/venues', { query: { only_with_upcoming: 'false' } })).body.total).toBe(4);
  });

  it('answers 404 past the last page of venues and organizers', async () => {
    expect((await svc.get('/venues', { query: { page: 9 } })).body.code).toBe('venue-archive-page-not-found');
    expect((await svc.get('/organizers', { query: { page: 9 } })).body.code).toBe('organizer-archive-page-not-found');
    const p2 = await svc.get('/venues', { query: { page: 2, per_page: 2 } });
    expect(p2.body.previous_rest_url).toBe(`${svc.rest}/venues/?per_page=2&status=publish`);
  });
});
