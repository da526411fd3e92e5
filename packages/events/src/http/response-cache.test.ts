import { describe, expect, it } from 'vitest';
import { ResponseCache, type CacheableRequest } from './response-cache.ts';

const get = (url: string, headers: CacheableRequest['headers'] = {}): CacheableRequest => ({
  method: 'GET',
  url,
  headers,
});

function setup(ttlMs = 1000) {
  const state = { now: 0, generation: { value: 1 } };
  const cache = new ResponseCache({ ttlMs, clock: () => state.now, generation: state.generation });
  return { state, cache };
}

describe('response cache of anonymous GETs', () => {
  it('answers a repeat from the kept answer until it expires, and keys on origin, X-TEC-EEA and the whole URL', async () => {
    const { state, cache } = setup();
    const first = get('/wp-json/tribe/events/v1/events?per_page=2');
    expect(await cache.open(first, 1, 0)).toBeUndefined();
    const kept = cache.keep(first, 200, { ETag: '"a"' }, '{"events":[]}');
    cache.close(first);
    expect(kept?.payload.toString()).toBe('{"events":[]}');
    expect(await cache.open(get('/wp-json/tribe/events/v1/events?per_page=2'), 1, 500)).toBe(kept);
    expect(
      await cache.open(get('/wp-json/tribe/events/v1/events?per_page=2', { origin: 'https://a.example' }), 1, 500),
    ).toBeUndefined();
    expect(
      await cache.open(get('/wp-json/tribe/events/v1/events?per_page=2', { 'x-tec-eea': '1' }), 1, 500),
    ).toBeUndefined();
    state.now = 1000;
    expect(await cache.open(get('/wp-json/tribe/events/v1/events?per_page=2'), 1, 1000)).toBeUndefined();
  });

  it('never serves or keeps an answer of an older write generation', async () => {
    const { state, cache } = setup();
    const req = get('/e');
    await cache.open(req, 1, 0);
    state.generation.value = 2; // a write committed while the answer was built
    expect(cache.keep(req, 200, {}, 'old')).toBeDefined();
    cache.close(req);
    expect(await cache.open(get('/e'), 2, 1)).toBeUndefined();
  });

  it('keeps nothing for a signed-in reader, another method, another status, or with the cache off', async () => {
    const { cache } = setup();
    expect(cache.keyOf(get('/e', { authorization: 'Basic eDp5' }))).toBeUndefined();
    expect(cache.keyOf({ method: 'HEAD', url: '/e', headers: {} })).toBeUndefined();
    expect(cache.keep(get('/e'), 404, {}, '{}')).toBeUndefined();
    expect(setup(0).cache.keyOf(get('/e'))).toBeUndefined();
  });

  it('lets identical GETs arriving during a build wait for its answer, and releases them when it keeps none', async () => {
    const { cache } = setup();
    const builder = get('/slow');
    expect(await cache.open(builder, 1, 0)).toBeUndefined();
    const waiter = cache.open(get('/slow'), 1, 0);
    const entry = cache.keep(builder, 200, {}, 'built once');
    cache.close(builder);
    expect(await waiter).toBe(entry);

    const failing = get('/fails');
    await cache.open(failing, 1, 0);
    const second = cache.open(get('/fails'), 1, 0);
    cache.close(failing); // an error: no answer to share
    expect(await second).toBeUndefined();
  });
});
