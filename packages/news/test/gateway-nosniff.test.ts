/**
 * `X-Content-Type-Options: nosniff` on every answer of the gateway (each route family, success and every error
 * status) and of the worker, over real HTTP on loopback.
 */
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeEnvelope, RPC_PATH } from '../src/protocol/index.ts';
import { parseGatewayConfig, startGateway, type RunningGateway } from '../src/gateway/index.ts';
import { OPERATOR_ENV, post, silentLogger, useFixtureStack } from './gateway-harness.ts';
import { FIXTURE } from './gateway-fixture.ts';

const VERSION = 'fixture-nosniff';
const fixture = useFixtureStack(FIXTURE, VERSION);
let noWorker: RunningGateway | undefined;
afterAll(async () => {
  await noWorker?.close();
});

interface Call {
  readonly method: string;
  readonly path: string;
  readonly body?: string | Buffer;
  readonly type?: string;
}

/** node:http rather than fetch: it sends a malformed path (`%ff`) exactly as written. */
function send(base: string, c: Call): Promise<{ status: number; nosniff: string | string[] | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}${c.path}`,
      { method: c.method, headers: c.type === undefined ? {} : { 'content-type': c.type } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, nosniff: res.headers['x-content-type-options'] }));
      },
    );
    req.on('error', reject);
    req.end(c.body);
  });
}

const json = (path: string, body: unknown): Call => ({
  method: 'POST',
  path,
  body: JSON.stringify(body),
  type: 'application/json',
});
const count = { query: 'alpha', index: 'news' };

async function expectNosniff(base: string, cases: readonly [Call, number][]): Promise<void> {
  for (const [c, status] of cases) {
    const r = await send(base, c);
    expect({ call: `${c.method} ${c.path}`, status: r.status, nosniff: r.nosniff }).toEqual({
      call: `${c.method} ${c.path}`,
      status,
      nosniff: 'nosniff',
    });
  }
}

describe('X-Content-Type-Options: nosniff', () => {
  it('is on every gateway answer: v1, v2, pages, openapi.json, the client and its assets, and every error status', async () => {
    const base = fixture.stack.gatewayUrl;
    const index = await (await fetch(`${base}/`)).text();
    const asset = /(\/assets\/[^"]+\.js)"/.exec(index)?.[1];
    expect(asset).toBeDefined();
    const found = (await post(`${base}/api/v1/find`, count)).body as { segment_by_shard: [number, number][] };
    const rank = found.segment_by_shard[0]![0];
    await expectNosniff(base, [
      [json('/api/v1/count', count), 200],
      [json('/api/v1/find', count), 200],
      [json('/api/v1/get_doc', { ...count, s: 0, rank }), 200],
      [{ method: 'GET', path: '/api/v1/info' }, 200],
      [json('/api/v1/count', { index: 'news' }), 422],
      [{ method: 'POST', path: '/api/v1/count', body: Buffer.from([0x7b, 0xff, 0x7d]), type: 'application/json' }, 400],
      [{ method: 'GET', path: '/api/v1/count' }, 405],
      [json('/api/v1/count', { query: 'x'.repeat(1_100_000), index: 'news' }), 413],
      [{ method: 'GET', path: '/api/v1/count%ff' }, 400],
      [{ method: 'GET', path: '/api/v2/health' }, 200],
      [json('/api/v2/count', count), 200],
      [json('/api/v2/find', count), 200],
      [{ method: 'GET', path: '/api/v2/info' }, 200],
      [json('/api/v2/get_doc', { ...count, shard_id: '2019-01', rank: 0, expected_index_version: 'stale' }), 409],
      [json('/api/v2/find', { index: 'news' }), 422],
      [{ method: 'GET', path: '/api/v2/not-built' }, 404],
      [{ method: 'GET', path: '/nope' }, 404],
      [{ method: 'GET', path: '/openapi.json' }, 200],
      [{ method: 'GET', path: '/api-docs' }, 200],
      [{ method: 'GET', path: '/impressum' }, 200],
      [{ method: 'GET', path: '/datenschutz' }, 200],
      [{ method: 'GET', path: '/' }, 200],
      [{ method: 'GET', path: asset! }, 200],
    ]);
  });

  it('is on the 503 answers of a gateway whose worker is not reachable', async () => {
    noWorker = await startGateway(
      parseGatewayConfig({
        GATEWAY_INDEX_VERSION: VERSION,
        GATEWAY_WORKER_URL: 'http://127.0.0.1:9',
        GATEWAY_PORT: '0',
        ...OPERATOR_ENV,
      }),
      silentLogger,
    );
    await expectNosniff(noWorker.url, [
      [json('/api/v1/count', count), 503],
      [{ method: 'GET', path: '/api/v2/health' }, 503],
      [json('/api/v2/count', count), 503],
    ]);
  });

  it('is on every worker answer: the RPC reply and its 400, 404 and 413 refusals', async () => {
    const worker = fixture.stack.worker.url;
    await expectNosniff(worker, [
      [{ method: 'POST', path: RPC_PATH, body: encodeEnvelope({ kind: 'identity' }), type: 'application/json' }, 200],
      [{ method: 'POST', path: RPC_PATH, body: '{not json', type: 'application/json' }, 400],
      [{ method: 'GET', path: '/' }, 404],
      [{ method: 'POST', path: RPC_PATH, body: Buffer.alloc(3 * 1024 * 1024, 0x20), type: 'application/json' }, 413],
    ]);
  });
});
