import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

// Every GET of the namespace (and the feeds) carries a strong ETag that changes exactly when the answer does. The
// response cache TTL is long here, so a changed ETag can only come from a changed answer, never from expiry.
const LONG_TTL = { EVENTS_CACHE_TTL_MS: '600000' };
const FEED = '/wp-json/tribe/events/v1/events.ics';

describe.each(STORES)('conditional requests ($name)', (factory) => {
  let svc: Service;
  /* eslint-disable @typescript-eslint/no-explicit-any -- API bodies */
  let venue: any;
  let event: any;
  let other: any;
  /* eslint-enable @typescript-eslint/no-explicit-any */
  const window = { start_date: '2032-01-01', end_date: '2032-12-31' };
  beforeAll(async () => {
    svc = await startService(factory, { env: LONG_TTL });
    venue = (await svc.post('/venues', { venue: 'Old Hall', city: 'Leeds' })).body;
    event = await createEvent(svc, {
      title: 'Watched',
      status: 'publish',
      venue: venue.id,
      start_date: '2032-03-01 10:00:00',
      end_date: '2032-03-01 11:00:00',
    });
    other = await createEvent(svc, {
      title: 'Elsewhere',
      status: 'publish',
      start_date: '2019-03-01 10:00:00',
      end_date: '2019-03-01 11:00:00',
    });
  });
  afterAll(async () => {
    await svc.close();
  });

  /** The ETags of the answers a client could be watching. */
  const tags = async () => {
    const paths: Array<[string, Record<string, string>]> = [
      [`/events/${event.id}`, {}],
      [`/events/${other.id}`, {}],
      ['/events', window],
      [`/venues/${venue.id}`, {}],
      [FEED, window],
    ];
    const out: Record<string, string> = {};
    for (const [p, q] of paths) {
      const res = await svc.get(p, { query: q });
      expect(res.status, p).toBe(200);
      out[p] = res.headers.get('etag')!;
    }
    return out;
  };

  it('answers 304 without a body to a matching If-None-Match, on items, lists, discovery, /doc and feeds', async () => {
    for (const path of [
      `/events/${event.id}`,
      '/events',
      `/venues/${venue.id}`,
      '/categories',
      '/wp-json/',
      '/wp-json/tribe/events/v1',
      '/wp-json/tribe/events/v1/doc',
      FEED,
    ]) {
      const first = await svc.get(path);
      expect(first.status, path).toBe(200);
      const etag = first.headers.get('etag')!;
      expect(etag, path).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const again = await svc.get(path, { headers: { 'if-none-match': etag } });
      expect(again.status, path).toBe(304);
      expect(again.text, path).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect((await svc.get(path, { headers: { 'if-none-match': '"other", W/' + etag } })).status, path).toBe(304);
      expect((await svc.get(path, { headers: { 'if-none-match': '"stale"' } })).status, path).toBe(200);
      const head = await svc.request('HEAD', path);
      expect(head.headers.get('etag'), path).toBe(etag);
    }
  });

  it("works for logged-in readers too, who keep WordPress's no-cache headers", async () => {
    const first = await svc.get(`/events/${event.id}`, { as: 'administrator' });
    expect(first.headers.get('cache-control')).toContain('no-store');
    const again = await svc.get(`/events/${event.id}`, {
      as: 'administrator',
      headers: { 'if-none-match': first.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('sends anonymous answers a Cache-Control as long as the response cache keeps them', async () => {
    expect((await svc.get('/events')).headers.get('cache-control')).toBe('public, max-age=600');
    expect((await svc.get(FEED)).headers.get('cache-control')).toBe('public, max-age=600');
  });

  it("keeps WordPress's CORS exposed headers on JSON answers; feeds expose their validators", async () => {
    const origin = { origin: 'https://app.example' };
    expect((await svc.get('/events', { headers: origin })).headers.get('access-control-expose-headers')).toBe(
      'X-WP-Total, X-WP-TotalPages, Link',
    );
    expect((await svc.get(FEED, { headers: origin })).headers.get('access-control-expose-headers')).toBe(
      'X-WP-Total, X-WP-TotalPages, Link, ETag, Last-Modified',
    );
  });

  it('sends Last-Modified on items from modified_gmt and honours If-Modified-Since', async () => {
    const res = await svc.get(`/events/${event.id}`);
    const lm = res.headers.get('last-modified')!;
    expect(new Date(lm).getTime()).toBe(Date.parse(`${event.modified_utc.replace(' ', 'T')}Z`));
    expect((await svc.get(`/events/${event.id}`, { headers: { 'if-modified-since': lm } })).status).toBe(304);
    const earlier = new Date(new Date(lm).getTime() - 1000).toUTCString();
    expect((await svc.get(`/events/${event.id}`, { headers: { 'if-modified-since': earlier } })).status).toBe(200);
    expect((await svc.get(`/events/${event.id}`, { headers: { 'if-modified-since': 'yesterday-ish' } })).status).toBe(
      200,
    );
    // If-None-Match wins over If-Modified-Since (RFC 9110 §13.1.3).
    expect(
      (await svc.get(`/events/${event.id}`, { headers: { 'if-modified-since': lm, 'if-none-match': '"stale"' } }))
        .status,
    ).toBe(200);
    expect((await svc.get(`/venues/${venue.id}`)).headers.get('last-modified')).toBe(
      new Date(Date.parse(`${venue.modified_utc.replace(' ', 'T')}Z`)).toUTCString(),
    );
  });

  it('a venue rename changes the ETag of the event, the list and the feed that show it, and nothing else', async () => {
    const before = await tags();
    svc.clock.now += 60_000;
    expect(
      (await svc.request('PATCH', `/venues/${venue.id}`, { form: { venue: 'New Hall' }, as: 'administrator' })).status,
    ).toBe(200);
    const after = await tags();
    for (const p of [`/events/${event.id}`, '/events', `/venues/${venue.id}`, FEED])
      expect(after[p], p).not.toBe(before[p]);
    expect(after[`/events/${other.id}`]).toBe(before[`/events/${other.id}`]);
    // The event's Last-Modified follows the venue it shows.
    const lm = (await svc.get(`/events/${event.id}`)).headers.get('last-modified')!;
    expect(new Date(lm).getTime()).toBe(svc.clock.now - (svc.clock.now % 1000));
  });

  it('an edit outside an answer leaves its ETag alone; an edit of the event changes its answers', async () => {
    const before = await tags();
    svc.clock.now += 60_000;
    await svc.request('PATCH', `/events/${other.id}`, { form: { title: 'Elsewhere, renamed' }, as: 'administrator' });
    await createEvent(svc, {
      title: 'Draft elsewhere',
      status: 'draft',
      start_date: '2032-03-02 10:00:00',
      end_date: '2032-03-02 11:00:00',
    });
    const mid = await tags();
    for (const p of [`/events/${event.id}`, '/events', `/venues/${venue.id}`, FEED]) expect(mid[p], p).toBe(before[p]);
    expect(mid[`/events/${other.id}`]).not.toBe(before[`/events/${other.id}`]);
    await svc.request('PATCH', `/events/${event.id}`, { form: { title: 'Watched, renamed' }, as: 'administrator' });
    const after = await tags();
    for (const p of [`/events/${event.id}`, '/events', FEED]) expect(after[p], p).not.toBe(mid[p]);
    expect(after[`/venues/${venue.id}`]).toBe(mid[`/venues/${venue.id}`]);
  });

  it('a re-poll right after a write gets the new answer, logged in or not; a method override is never a 304', async () => {
    for (const as of [undefined, 'administrator'] as const) {
      const path = `/events/${event.id}`;
      const etag = (await svc.get(path, { as })).headers.get('etag')!;
      expect((await svc.get(path, { as, headers: { 'if-none-match': etag } })).status).toBe(304);
      await svc.request('PATCH', path, { form: { excerpt: `seen by ${as ?? 'anyone'}` }, as: 'administrator' });
      const fresh = await svc.get(path, { as, headers: { 'if-none-match': etag } });
      expect(fresh.status).toBe(200);
      expect(fresh.body.excerpt).toContain(`seen by ${as ?? 'anyone'}`);
    }
    const doomed = await createEvent(svc, { title: 'Doomed', status: 'publish' });
    const etag = (await svc.get(`/events/${doomed.id}`, { as: 'administrator' })).headers.get('etag')!;
    const del = await svc.get(`/events/${doomed.id}`, {
      as: 'administrator',
      headers: { 'if-none-match': etag, 'x-http-method-override': 'DELETE' },
    });
    expect(del.status).toBe(200);
    expect(del.body.status).toBe('trash');
  });

  it("a category rename changes the event's ETag (terms have no modification date)", async () => {
    const cat = (await svc.post('/categories', { name: 'Talks' })).body;
    await svc.request('PATCH', `/events/${event.id}`, { form: { categories: [cat.id] }, as: 'administrator' });
    const before = (await svc.get(`/events/${event.id}`)).headers.get('etag');
    await svc.request('PATCH', `/categories/${cat.id}`, { form: { name: 'Lectures' }, as: 'administrator' });
    const res = await svc.get(`/events/${event.id}`, { headers: { 'if-none-match': before! } });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).not.toBe(before);
  });
});
