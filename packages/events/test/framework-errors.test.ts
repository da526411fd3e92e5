import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, type Service } from './support/harness.ts';

/** Sends raw bytes and returns the whole answer: for requests too broken for fetch to send. */
function rawRequest(base: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let out = '';
    socket.on('data', (c: Buffer) => {
      out += c.toString();
    });
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

const envelopeOf = (raw: string) =>
  JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as { code: string; data: { status: number } };

describe('errors raised before a route runs use the WordPress envelope', () => {
  let svc: Service;
  // No store is involved before routing; one is enough.
  beforeAll(async () => {
    svc = await startService(STORES[0]!);
  });
  afterAll(() => svc.close());

  it('answers a path that does not decode (%ff) with 400 rest_bad_request', async () => {
    for (const path of ['/wp-json/tribe/events/v1/events/%ff', '/wp-json/%ff', '/%ff']) {
      const res = await svc.request('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
      expect(res.body).toEqual({
        code: 'rest_bad_request',
        message: 'The request URL could not be read.',
        data: { status: 400 },
      });
    }
  });

  it('answers a request that is not HTTP with 400 and headers too large with 431', async () => {
    const garbage = await rawRequest(svc.base, 'NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(envelopeOf(garbage)).toMatchObject({ code: 'rest_bad_request', data: { status: 400 } });
    const huge = await rawRequest(
      svc.base,
      `GET /wp-json/ HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(huge).toMatch(/^HTTP\/1\.1 431 /);
    expect(envelopeOf(huge)).toMatchObject({ code: 'rest_bad_request', data: { status: 431 } });
  });

  it('keeps the plugin codes for truncated JSON (rest_invalid_json) and oversized bodies (413)', async () => {
    const truncated = await svc.request('POST', '/venues', {
      body: '{"venue": "Half',
      headers: { 'content-type': 'application/json' },
      as: 'administrator',
    });
    expect([truncated.status, truncated.body.code]).toEqual([400, 'rest_invalid_json']);
    const big = await svc.request('POST', '/venues', {
      body: 'x'.repeat(1024 * 1024 + 1),
      headers: { 'content-type': 'application/json' },
      as: 'administrator',
    });
    expect([big.status, big.body.code, big.body.data.status]).toEqual([413, 'rest_payload_too_large', 413]);
  });
});
