import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { CLIENT_CSP, registerBrowserClient } from '../src/gateway/client/index.ts';

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  registerBrowserClient(app);
  registerBrowserClient(app);
  await app.ready();
});
afterAll(async () => {
  await app.close();
});

function assetPaths(html: string): string[] {
  return [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
}

describe('serving the browser client', () => {
  it('serves the page as revalidated HTML under a strict CSP without inline code', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toBe(CLIENT_CSP);
    expect(CLIENT_CSP).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // No inline script or style, no event-handler attributes: all code and styling comes from the asset files.
    expect(/<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=|\son\w+=/.test(res.body)).toBe(false);
    expect(assetPaths(res.body)).toHaveLength(3);
  });

  it('serves content-hashed assets with their types, cached for a year', async () => {
    const html = (await app.inject({ method: 'GET', url: '/' })).body;
    const types: Record<string, string> = {
      js: 'text/javascript; charset=utf-8',
      css: 'text/css; charset=utf-8',
      svg: 'image/svg+xml',
    };
    for (const path of assetPaths(html)) {
      const res = await app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(200);
      expect(res.headers['content-type']).toBe(types[path.split('.').at(-1)!]);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.body.length).toBeGreaterThan(100);
    }
  });

  it('answers 304 to a request that already has the current version', async () => {
    const first = await app.inject({ method: 'GET', url: '/' });
    const again = await app.inject({
      method: 'GET',
      url: '/',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('bundles the client into one script with no external imports', async () => {
    const html = (await app.inject({ method: 'GET', url: '/' })).body;
    const js = (await app.inject({ method: 'GET', url: assetPaths(html).find((p) => p.endsWith('.js'))! })).body;
    // Module imports left in the bundle would fetch more files (the embedded Python's `import x` lines are text).
    expect(/\bimport\s*\(|\bimport\s*[{*]|\bfrom\s*["'][./]/.test(js)).toBe(false);
    expect(js.includes('/api/v2/documents')).toBe(true);
  });
});

describe('compressed client assets', () => {
  it('serves brotli or gzip variants compressed once at start-up, each with its own ETag, and plain bytes otherwise', async () => {
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    const plain = await app.inject({ method: 'GET', url: '/' });
    for (const [accept, coding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip;q=1, br;q=0', 'gzip', gunzipSync],
      ['*', 'br', brotliDecompressSync],
    ] as const) {
      const res = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': accept } });
      expect(res.headers['content-encoding'], accept).toBe(coding);
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(decode(res.rawPayload).toString()).toBe(plain.body);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length);
      expect(res.headers.etag).not.toBe(plain.headers.etag);
      const again = await app.inject({
        method: 'GET',
        url: '/',
        headers: { 'accept-encoding': accept, 'if-none-match': String(res.headers.etag) },
      });
      expect(again.statusCode).toBe(304);
    }
    const identity = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toBe('Accept-Encoding');
  });
});
