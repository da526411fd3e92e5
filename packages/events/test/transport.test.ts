import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

describe.each(STORES)('HTTP transport as WordPress serves it ($name)', (factory) => {
  let svc: Service;
  let eventId: number;
  beforeAll(async () => {
    svc = await startService(factory);
    eventId = (await createEvent(svc, { title: 'Transport' })).id;
  });
  afterAll(() => svc.close());

  it('answers 404 rest_no_route for non-numeric ids, empty slugs and unknown paths', async () => {
    for (const path of ['/events/abc', '/venues/foo%20bar', '/events/by-slug/', '/nope', '/categories/by-slug/x']) {
      const res = await svc.get(path);
      expect(res.status, path).toBe(404);
      expect(res.body).toEqual({
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    }
  });

  it('answers 404 rest_no_route for a method the route does not have', async () => {
    const res = await svc.request('PUT', '/events', { as: 'administrator' });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('rest_no_route');
  });

  it('ignores a trailing slash and letter case in routes', async () => {
    expect((await svc.get(`/events/${eventId}/`)).status).toBe(200);
    expect((await svc.get(`/EVENTS/${eventId}`)).body.id).toBe(eventId);
  });

  it('serves ?rest_route= for sites without pretty permalinks', async () => {
    const res = await svc.get(`/?rest_route=/tribe/events/v1/events/${eventId}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(eventId);
  });

  it('sends core headers and the X-TEC paging headers, never X-WP-Total', async () => {
    const res = await svc.get('/events', { headers: { origin: 'http://client.test' } });
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('link')).toBe('<http://wordpress.test/wp-json/>; rel="https://api.w.org/"');
    expect(res.headers.get('access-control-expose-headers')).toBe('X-WP-Total, X-WP-TotalPages, Link');
    expect(res.headers.get('access-control-allow-origin')).toBe('http://client.test');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('x-tec-total')).toBe('1');
    expect(res.headers.get('x-tec-totalpages')).toBe('1');
    expect(res.headers.get('x-wp-total')).toBeNull();
    // rest_send_allow_header: only the methods whose permission check passes for this (anonymous) caller.
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('sends Vary: Origin on anonymous GETs without an Origin, and not to logged-in users', async () => {
    expect((await svc.get('/events')).headers.get('vary')).toBe('Origin');
    expect((await svc.get('/events', { as: 'administrator' })).headers.get('vary')).toBeNull();
    expect((await svc.request('HEAD', '/events')).headers.get('vary')).toBeNull();
  });

  it('lists in Allow the methods the caller may use on the matched route, errors included', async () => {
    const mine = await createEvent(svc, { title: 'Allow me' });
    expect((await svc.get(`/events/${mine.id}`, { as: 'administrator' })).headers.get('allow')).toBe(
      'GET, DELETE, POST, PUT, PATCH',
    );
    expect((await svc.get(`/events/${mine.id}`, { as: 'author' })).headers.get('allow')).toBe('GET');
    expect((await svc.get(`/events/${mine.id}`)).headers.get('allow')).toBe('GET');
    const missing = await svc.get('/events/999999', { as: 'administrator' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('allow')).toBe('GET, DELETE, POST, PUT, PATCH');
    expect((await svc.request('OPTIONS', `/events/${mine.id}`)).headers.get('allow')).toBe('GET');
    expect((await svc.get('/nope')).headers.get('allow')).toBeNull();
  });

  it('applies _method to any HTTP method, as core does: an anonymous GET with _method=DELETE is refused', async () => {
    const a = await createEvent(svc, { title: 'Not deleted by a GET' });
    const res = await svc.get(`/events/${a.id}`, { query: { _method: 'DELETE' } });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('rest_forbidden');
    expect((await svc.get(`/events/${a.id}`)).body.status).toBe('publish');
  });

  it('sends no-cache headers to logged-in users only; anonymous answers may be kept as long as the response cache', async () => {
    expect((await svc.get('/events', { as: 'subscriber' })).headers.get('cache-control')).toContain('no-store');
    expect((await svc.get('/events')).headers.get('cache-control')).toBe('public, max-age=5');
  });

  it('honours _method and X-HTTP-Method-Override on POST', async () => {
    const a = await createEvent(svc, { title: 'Override me' });
    const res = await svc.request('POST', `/events/${a.id}`, { query: { _method: 'DELETE' }, as: 'administrator' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('trash');
    const b = await createEvent(svc, { title: 'Override header' });
    const res2 = await svc.request('POST', `/events/${b.id}`, {
      headers: { 'x-http-method-override': 'DELETE' },
      as: 'administrator',
    });
    expect(res2.body.status).toBe('trash');
  });

  it('serves HEAD like GET without a body, and OPTIONS with route info', async () => {
    const head = await svc.request('HEAD', '/events');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('x-tec-total')).not.toBeNull();
    const opts = await svc.request('OPTIONS', '/events');
    expect(opts.status).toBe(200);
    expect(opts.body.namespace).toBe('tribe/events/v1');
    expect(opts.body.endpoints.map((e: { methods: string[] }) => e.methods)).toEqual([['GET'], ['POST']]);
  });

  it('honours _fields, _envelope and _jsonp', async () => {
    expect((await svc.get(`/events/${eventId}`, { query: { _fields: 'id,title' } })).body).toEqual({
      id: eventId,
      title: 'Transport',
    });
    const env = await svc.get('/events/999999', { query: { _envelope: '1' } });
    expect(env.status).toBe(200);
    expect(env.body.status).toBe(404);
    expect(env.body.body.code).toBe('rest-event-not-found');
    const jsonp = await svc.get(`/events/${eventId}`, { query: { _jsonp: 'cb', _fields: 'id' } });
    expect(jsonp.text).toBe(`/**/cb({"id":${eventId}})`);
  });

  it("keeps the route headers inside an _envelope and core's own headers outside it", async () => {
    const env = await svc.get('/events', { query: { _envelope: '1', _fields: 'total' }, as: 'administrator' });
    expect(env.body.headers).toEqual({
      'X-TEC-Total': env.body.body.total,
      'X-TEC-TotalPages': expect.any(Number),
      Allow: 'GET, POST',
    });
    expect(env.headers.get('x-tec-total')).toBeNull();
    expect(env.headers.get('allow')).toBeNull();
    expect(env.headers.get('access-control-expose-headers')).toBe('X-WP-Total, X-WP-TotalPages, Link');
  });

  it('filters with _fields as core does: lists inside objects lose named sub-fields, unknown fields give []', async () => {
    const list = await svc.get('/events', { query: { _fields: 'events.id,total' } });
    expect(list.body).toEqual({ events: [], total: Number(list.headers.get('x-tec-total')) });
    expect(list.body.total).toBeGreaterThan(0);
    expect((await svc.get(`/events/${eventId}`, { query: { _fields: 'nope' } })).text).toBe('[]');
    expect((await svc.get(`/events/${eventId}`, { query: { _fields: ['id', 'title'] } })).body).toEqual({
      id: eventId,
      title: 'Transport',
    });
    // The namespace index's `up` link is a response link, added after the filter.
    const index = await svc.get('', { query: { _fields: 'namespace' } });
    expect(index.body).toEqual({
      namespace: 'tribe/events/v1',
      _links: { up: [{ href: 'http://wordpress.test/wp-json/' }] },
    });
  });

  it('refuses an invalid _jsonp callback with 400 before anything else', async () => {
    const res = await svc.get(`/events/${eventId}`, { query: { _jsonp: 'bad-name()' } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/javascript; charset=UTF-8');
    expect(res.headers.get('allow')).toBeNull();
    expect(JSON.parse(res.text)).toEqual({
      code: 'rest_callback_invalid',
      message: 'Invalid JSONP callback function.',
    });
  });

  it('answers malformed JSON with 400 rest_invalid_json and writes nothing', async () => {
    const res = await svc.request('POST', '/events', {
      body: '{"title": "x",',
      headers: { 'content-type': 'application/json' },
      as: 'administrator',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('rest_invalid_json');
    expect(res.body.message).toBe('Invalid JSON body passed.');
  });

  it('reads a JSON list as parameters 0, 1, … and a JSON null as not sent, as WP_REST_Request does', async () => {
    const list = await svc.request('POST', '/events', {
      body: '["not", "an", "object"]',
      headers: { 'content-type': 'application/json' },
      as: 'administrator',
    });
    expect(list.status).toBe(400);
    expect(list.body).toMatchObject({
      code: 'rest_missing_callback_param',
      data: { params: ['title', 'start_date', 'end_date'] },
    });
    const nullCost = await svc.request('POST', '/events', {
      json: { title: 'Null cost', start_date: '2018-02-01 10:00', end_date: '2018-02-01 11:00', cost: null },
      as: 'administrator',
    });
    expect(nullCost.status).toBe(201);
    expect(nullCost.body.cost).toBe('');
  });

  it('answers an oversized body with 413 in the WordPress envelope', async () => {
    const res = await svc.request('POST', '/events', {
      body: `title=${'x'.repeat(1024 * 1024 + 10)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      as: 'administrator',
    });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'rest_payload_too_large', data: { status: 413 } });
  });

  it('reflects every write in the next anonymous read, cached or not', async () => {
    const before = await svc.get('/events', { query: { search: 'Cache probe' } });
    expect(before.body.total).toBe(0);
    const e = await createEvent(svc, { title: 'Cache probe' });
    expect((await svc.get('/events', { query: { search: 'Cache probe' } })).body.total).toBe(1);
    expect((await svc.get(`/events/${e.id}`)).body.title).toBe('Cache probe');
    await svc.request('PATCH', `/events/${e.id}`, { form: { title: 'Cache probe renamed' }, as: 'editor' });
    expect((await svc.get(`/events/${e.id}`)).body.title).toBe('Cache probe renamed');
  });

  it('lists the namespace in the site index at /wp-json/', async () => {
    const res = await svc.get('/wp-json/');
    expect(res.status).toBe(200);
    expect(res.body.namespaces).toContain('tribe/events/v1');
  });
});
