import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

const titles = (res: { body: { events: { title: string }[] } }) => res.body.events.map((e) => e.title);

describe.each(STORES)('GET /events: date window, filters and paging ($name)', (factory) => {
  let svc: Service;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    // "now" is 2018-01-10 12:00 UTC.
    svc = await startService(factory);
    const make = async (title: string, start: string, end: string, extra: Record<string, unknown> = {}) => {
      ids[title] = (await createEvent(svc, { title, start_date: start, end_date: end, ...extra })).id;
    };
    await make('old', '2017-12-01 10:00:00', '2017-12-01 11:00:00');
    await make('yesterday', '2018-01-09 08:00:00', '2018-01-09 09:00:00');
    await make('jan1 morning', '2018-01-01 09:00:00', '2018-01-01 10:00:00', { search: 'x' });
    await make('jan1 afternoon', '2018-01-01 16:00:00', '2018-01-01 17:00:00');
    await make('spanning', '2017-12-31 20:00:00', '2018-01-02 02:00:00');
    await make('foo', '2018-01-11 10:00:00', '2018-01-11 11:00:00', {
      featured: true,
      categories: ['Music'],
      tags: ['loud'],
    });
    await make('foo bar', '2018-01-11 10:00:00', '2018-01-11 12:00:00', { categories: ['Art'] });
    await make('bar', '2018-01-12 10:00:00', '2018-01-12 11:00:00', { tags: ['loud'] });
    await make('far future', '2021-01-01 10:00:00', '2021-01-01 11:00:00');
    await make('hidden', '2018-01-11 10:00:00', '2018-01-11 11:00:00', { hide_from_listings: true });
    await make('draft', '2018-01-11 13:00:00', '2018-01-11 14:00:00', { status: 'draft' });
  });
  afterAll(() => svc.close());

  it('defaults to events from the start of yesterday to 24 months ahead, ordered by start', async () => {
    const res = await svc.get('/events');
    expect(res.status).toBe(200);
    expect(titles(res)).toEqual(['yesterday', 'foo', 'foo bar', 'bar']);
    expect(Object.keys(res.body)).toEqual(['events', 'rest_url', 'total', 'total_pages']);
    expect(res.body.rest_url).toContain(`${svc.rest}/events/?page=1&per_page=10&start_date=2018-01-09`);
    expect(res.body.rest_url).toContain('status=publish');
    expect(res.body.events[0]).not.toHaveProperty('json_ld');
  });

  it('shows drafts to editors but never events hidden from listings', async () => {
    expect(titles(await svc.get('/events', { as: 'editor' }))).toEqual(['yesterday', 'foo', 'foo bar', 'draft', 'bar']);
    expect((await svc.get(`/events/${ids.hidden}`)).status).toBe(200);
  });

  it('treats start_date and end_date as whole days unless strict_dates', async () => {
    const q = { start_date: '2018-01-01 15:00', end_date: '2018-01-01 18:00' };
    expect(titles(await svc.get('/events', { query: q }))).toEqual(['jan1 morning', 'jan1 afternoon']);
    expect(titles(await svc.get('/events', { query: { ...q, strict_dates: 'true' } }))).toEqual(['jan1 afternoon']);
  });

  it('applies relative filters as strict inequalities at the end of the given day and drops the default window', async () => {
    expect(
      titles(await svc.get('/events', { query: { ends_after: '2017-12-31', starts_before: '2018-01-02' } })),
    ).toEqual(['spanning', 'jan1 morning', 'jan1 afternoon']);
    expect(titles(await svc.get('/events', { query: { starts_after: '2020-01-01' } }))).toEqual(['far future']);
    expect(titles(await svc.get('/events', { query: { ends_before: '2017-12-31' } }))).toEqual(['old']);
  });

  it('returns include ids whatever their dates, in post date order', async () => {
    const res = await svc.get('/events', {
      query: { include: `${ids.old},${ids['far future']}`, start_date: '2018-01-11' },
    });
    expect(titles(res)).toEqual(['old', 'far future']);
    expect(res.body.total).toBe(2);
    expect((await svc.get('/events', { query: { include: 'foo-bar,23' } })).status).toBe(400);
  });

  it('searches every word in title or description', async () => {
    expect(titles(await svc.get('/events', { query: { search: 'foo' } }))).toEqual(['foo', 'foo bar']);
    expect(titles(await svc.get('/events', { query: { search: 'bar' } }))).toEqual(['foo bar', 'bar']);
    expect((await svc.get('/events', { query: { search: '' } })).status).toBe(400);
  });

  it('filters by categories and tags by id or slug with OR inside and AND across, and 400s unknown ones', async () => {
    expect(titles(await svc.get('/events', { query: { categories: ['music', 'art'] } }))).toEqual(['foo', 'foo bar']);
    expect(titles(await svc.get('/events', { query: { categories: 'music', tags: 'loud' } }))).toEqual(['foo']);
    const cats = await svc.get('/categories', { query: { hide_empty: 'false', slug: 'art' } });
    expect(titles(await svc.get('/events', { query: { categories: cats.body.categories[0].id } }))).toEqual([
      'foo bar',
    ]);
    expect((await svc.get('/events', { query: { categories: 'nope' } })).status).toBe(400);
    expect((await svc.get('/events', { query: { tags: '99999' } })).status).toBe(400);
  });

  it('filters featured and not featured', async () => {
    expect(titles(await svc.get('/events', { query: { featured: 'true' } }))).toEqual(['foo']);
    expect(titles(await svc.get('/events', { query: { featured: 'false' } }))).toEqual(['yesterday', 'foo bar', 'bar']);
  });

  it('filters by venue and organizer ids and rejects ids of other types', async () => {
    const v = (await svc.post('/venues', { venue: 'Filter venue' })).body;
    const o = (await svc.post('/organizers', { organizer: 'Filter org' })).body;
    await createEvent(svc, {
      title: 'at venue',
      start_date: '2018-01-13 10:00',
      end_date: '2018-01-13 11:00',
      venue: v.id,
      organizer: o.id,
    });
    expect(titles(await svc.get('/events', { query: { venue: v.id } }))).toEqual(['at venue']);
    expect(titles(await svc.get('/events', { query: { organizer: `${o.id}` } }))).toEqual(['at venue']);
    expect((await svc.get('/events', { query: { venue: 'foo' } })).status).toBe(400);
    expect((await svc.get('/events', { query: { venue: ids.foo! } })).status).toBe(400);
    expect((await svc.get('/events', { query: { post_parent: 'foo-bar' } })).status).toBe(400);
    expect((await svc.get('/events', { query: { post_parent: 23 } })).status).toBe(400);
    expect(
      (
        await svc.request(
          'DELETE',
          `/events/${(await svc.get('/events', { query: { search: 'at venue' } })).body.events[0].id}`,
          { as: 'administrator' },
        )
      ).status,
    ).toBe(200);
  });

  it('filters on venue geolocation natively', async () => {
    const near = (await svc.post('/venues', { venue: 'Near', geo_lat: '51.5', geo_lng: '-0.12' })).body;
    const far = (await svc.post('/venues', { venue: 'Far', geo_lat: '40.7', geo_lng: '-74' })).body;
    await createEvent(svc, {
      title: 'geo near',
      start_date: '2018-01-14 10:00',
      end_date: '2018-01-14 11:00',
      venue: near.id,
    });
    await createEvent(svc, {
      title: 'geo far',
      start_date: '2018-01-14 10:00',
      end_date: '2018-01-14 11:00',
      venue: far.id,
    });
    expect(titles(await svc.get('/events', { query: { geoloc: 'true' } }))).toEqual(['geo near', 'geo far']);
    expect(titles(await svc.get('/events', { query: { geoloc_lat: '51.51', geoloc_lng: '-0.1' } }))).toEqual([
      'geo near',
    ]);
    expect((await svc.get('/events', { query: { geoloc_lat: '51.51' } })).status).toBe(400);
  });

  it('refuses ticketed=true without Event Tickets and accepts false', async () => {
    const res = await svc.get('/events', { query: { ticketed: 'true' } });
    expect(res.status).toBe(400);
    expect(res.body.data.details.ticketed.code).toBe('event-tickets-not-active');
    expect((await svc.get('/events', { query: { ticketed: 'false' } })).status).toBe(200);
  });

  it('pages with X-TEC headers, next and previous links, and 404 past the end', async () => {
    const p1 = await svc.get('/events', { query: { per_page: 2, categories: 'music,art,nope2' } });
    expect(p1.status).toBe(400);
    const first = await svc.get('/events', {
      query: { per_page: 2, search: 'o', featured: 'false', categories: 'art' },
    });
    expect(first.status).toBe(200);
    const all = await svc.get('/events', { query: { per_page: 2, search: 'geo' } });
    expect(all.body.total).toBe(2);
    const paged = await svc.get('/events', { query: { per_page: 1, search: 'foo' } });
    expect(paged.body.total).toBe(2);
    expect(paged.body.total_pages).toBe(2);
    expect(paged.headers.get('x-tec-total')).toBe('2');
    expect(paged.headers.get('x-tec-totalpages')).toBe('2');
    // rest_url is the plugin's echo, which leaves categories out; the paging links keep them (post/listing.test.ts).
    expect(first.body.rest_url).not.toContain('categories=');
    expect(paged.body.next_rest_url).toContain('page=2');
    expect(paged.body.next_rest_url).toContain('search=foo');
    expect(paged.body).not.toHaveProperty('previous_rest_url');
    const second = await svc.get(paged.body.next_rest_url.replace('http://wordpress.test', svc.base));
    expect(titles(second)).toHaveLength(1);
    expect(second.body).not.toHaveProperty('next_rest_url');
    expect(second.body.previous_rest_url).not.toMatch(/[?&]page=/);
    const past = await svc.get('/events', { query: { page: 3, per_page: 1, search: 'foo' } });
    expect(past.status).toBe(404);
    expect(past.body).toEqual({
      code: 'event-archive-page-not-found',
      message: 'The requested event archive page does not exist',
      data: { status: 404 },
    });
  });

  it('answers an empty first page with 200, zero totals and no links', async () => {
    const res = await svc.get('/events', { query: { search: 'nothing-matches' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ events: [], total: 0, total_pages: 0 });
    expect(res.body).not.toHaveProperty('next_rest_url');
    expect(res.headers.get('x-tec-total')).toBe('0');
  });

  it('clamps per_page to 50 and rejects non-positive paging values', async () => {
    for (let i = 0; i < 52; i++)
      await createEvent(svc, { title: `bulk ${i}`, start_date: '2018-01-20 10:00', end_date: '2018-01-20 11:00' });
    const res = await svc.get('/events', { query: { per_page: 100 } });
    expect(res.body.events).toHaveLength(50);
    for (const bad of ['foo', '-1', '0', 'foo bar']) {
      expect((await svc.get('/events', { query: { per_page: bad } })).status).toBe(400);
      expect((await svc.get('/events', { query: { page: bad } })).status).toBe(400);
    }
  });

  it('lets only editors ask for non-published statuses', async () => {
    expect((await svc.get('/events', { query: { status: 'draft' } })).status).toBe(400);
    expect((await svc.get('/events', { query: { status: 'publish' } })).status).toBe(200);
    const trashed = await svc.get('/events', { query: { status: 'trash', start_date: '2018-01-01' }, as: 'editor' });
    expect(titles(trashed)).toEqual(['at venue']);
    expect(
      titles(await svc.get('/events', { query: { status: 'publish, draft', search: 'draft' }, as: 'administrator' })),
    ).toEqual(['draft']);
  });

  it('counts drafts for editors but not for visitors', async () => {
    const all = await svc.get('/events', {
      query: { start_date: '2018-01-11', end_date: '2018-01-11' },
      as: 'administrator',
    });
    const anon = await svc.get('/events', { query: { start_date: '2018-01-11', end_date: '2018-01-11' } });
    expect(all.body.total).toBe(anon.body.total + 1);
  });
});
