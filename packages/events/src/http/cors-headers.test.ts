import { describe, expect, it } from 'vitest';
import { restHeaders } from './cors-headers.ts';

describe('restHeaders', () => {
  it('echoes an Origin with credentials, as rest_send_cors_headers', () => {
    const h = restHeaders('http://site', { method: 'POST', origin: 'http://app' }, false);
    expect(h).toMatchObject({
      'Access-Control-Allow-Origin': 'http://app',
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Allow-Methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
      Vary: 'Origin',
      Link: '<http://site/wp-json/>; rel="https://api.w.org/"',
      'X-Robots-Tag': 'noindex',
    });
    expect(h['Cache-Control']).toBeUndefined();
  });

  it('varies an anonymous GET on Origin even without one, and nothing else', () => {
    expect(restHeaders('http://site', { method: 'GET' }, false).Vary).toBe('Origin');
    expect(restHeaders('http://site', { method: 'POST' }, false).Vary).toBeUndefined();
    expect(restHeaders('http://site', { method: 'GET' }, true).Vary).toBeUndefined();
    expect(restHeaders('http://site', { method: 'GET' }, false)['Access-Control-Allow-Origin']).toBeUndefined();
  });

  it('forbids caching a logged-in answer', () => {
    expect(restHeaders('http://site', { method: 'GET' }, true)).toMatchObject({
      'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
      Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
    });
  });
});
