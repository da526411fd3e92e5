import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildFixtureRelease,
  get,
  OPERATOR_ENV,
  post,
  silentLogger,
  startStack,
  type Stack,
} from './gateway-harness.ts';
import { FIXTURE } from './gateway-fixture.ts';
import { parseGatewayConfig, startGateway, type RunningGateway } from '../src/gateway/index.ts';
import { openRelease } from '../src/release/index.ts';
import { startWorker } from '../src/worker/index.ts';

const VERSION = 'fixture-binding';
let stack: Stack;
let dir: string;
let cleanup: () => Promise<void>;
const extra: RunningGateway[] = [];
const countBody = { query: 'alpha', index: 'news' };

async function gatewayFor(workerUrl: string, env: Record<string, string> = {}): Promise<RunningGateway> {
  const g = await startGateway(
    parseGatewayConfig({
      GATEWAY_INDEX_VERSION: VERSION,
      GATEWAY_WORKER_URL: workerUrl,
      GATEWAY_PORT: '0',
      ...OPERATOR_ENV,
      ...env,
    }),
    silentLogger,
  );
  extra.push(g);
  return g;
}

beforeAll(async () => {
  const built = await buildFixtureRelease(FIXTURE, VERSION);
  dir = built.dir;
  cleanup = built.cleanup;
  stack = await startStack(dir, VERSION);
});
afterAll(async () => {
  for (const g of extra) await g.close();
  await stack?.close();
  await cleanup?.();
});

describe('release binding', () => {
  it('health passes with the release identity and shard set when the worker serves the configured release', async () => {
    const r = await get(`${stack.gatewayUrl}/api/v2/health`);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
    expect(r.body.index_version).toBe(VERSION);
    expect(r.body.shards.map((s: { shard_id: string }) => s.shard_id)).toEqual([
      '2019-01',
      '2019-03',
      '2020-05',
      '2021-07',
    ]);
  });

  it('other v2 paths are 404 once the binding is confirmed', async () => {
    const r = await get(`${stack.gatewayUrl}/api/v2/not-built-yet`);
    expect(r.status).toBe(404);
  });

  it('health fails and v2 answers 503 when the gateway is configured for another release', async () => {
    const g = await gatewayFor(stack.worker.url, { GATEWAY_INDEX_VERSION: 'another-release' });
    const h = await get(`${g.url}/api/v2/health`);
    expect(h.status).toBe(503);
    expect(h.body).toMatchObject({
      status: 'unavailable',
      gateway_index_version: 'another-release',
      worker_index_version: VERSION,
    });
    const v2 = await post(`${g.url}/api/v2/find`, countBody);
    expect(v2.status).toBe(503);
    expect(v2.body).toMatchObject({
      code: 'release_unavailable',
      gateway_index_version: 'another-release',
      worker_index_version: VERSION,
    });
    expect(typeof v2.body.detail).toBe('string');
  });
});

describe('worker availability', () => {
  it('answers 503 with Retry-After when no worker listens, and health names no worker release', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const g = await gatewayFor(`http://127.0.0.1:${port}`);
    const r = await post(`${g.url}/api/v1/count`, countBody);
    expect(r.status).toBe(503);
    expect(r.body.code).toBe('worker_unavailable');
    expect(r.headers.get('retry-after')).toBe('1');
    const h = await get(`${g.url}/api/v2/health`);
    expect(h.status).toBe(503);
    expect(h.body.worker_index_version).toBeNull();
  });

  it('answers 503 instead of hanging when the worker accepts but does not answer', async () => {
    const sockets: Socket[] = [];
    const blackHole: Server = createServer((s) => {
      sockets.push(s);
    });
    await new Promise<void>((r) => blackHole.listen(0, '127.0.0.1', r));
    const port = (blackHole.address() as { port: number }).port;
    try {
      const g = await gatewayFor(`http://127.0.0.1:${port}`, { GATEWAY_WORKER_TIMEOUT_MS: '200' });
      const r = await post(`${g.url}/api/v1/count`, countBody);
      expect(r.status).toBe(503);
      expect(r.body.detail).toMatch(/did not answer within 200 ms/);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => blackHole.close(() => r()));
    }
  });

  it('recovers by itself when the worker comes back on its address', async () => {
    const release = await openRelease(dir, { expectedIndexVersion: VERSION });
    const first = await startWorker(release, { host: '127.0.0.1', port: 0 }, silentLogger);
    const port = Number(new URL(first.url).port);
    const g = await gatewayFor(first.url);
    expect((await post(`${g.url}/api/v1/count`, countBody)).status).toBe(200);
    await first.close();
    expect((await post(`${g.url}/api/v1/count`, countBody)).status).toBe(503);
    const again = await startWorker(
      await openRelease(dir, { expectedIndexVersion: VERSION }),
      { host: '127.0.0.1', port },
      silentLogger,
    );
    try {
      const r = await post(`${g.url}/api/v1/count`, countBody);
      expect(r.status).toBe(200);
      expect(r.body.count).toBeGreaterThan(0);
      expect((await get(`${g.url}/api/v2/health`)).status).toBe(200);
    } finally {
      await again.close();
    }
  });
});
