import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelease } from '../src/release/index.ts';
import { startWorker, type RunningServer } from '../src/worker/index.ts';
import { encodeEnvelope, PROTOCOL_VERSION } from '../src/protocol/index.ts';
import { buildFixtureRelease, get, post, silentLogger } from './gateway-harness.ts';
import { FIXTURE } from './gateway-fixture.ts';

const VERSION = 'fixture-worker-http';
let worker: RunningServer;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const built = await buildFixtureRelease(FIXTURE, VERSION);
  cleanup = built.cleanup;
  worker = await startWorker(await openRelease(built.dir, { expectedIndexVersion: VERSION }), { host: '127.0.0.1', port: 0 }, silentLogger);
});
afterAll(async () => {
  await worker?.close();
  await cleanup?.();
});

describe('worker HTTP framing', () => {
  it('listens on loopback and answers a protocol message on POST /rpc', async () => {
    expect(new URL(worker.url).hostname).toBe('127.0.0.1');
    const r = await post(`${worker.url}/rpc`, Buffer.from(encodeEnvelope({ kind: 'count', index: 'news', query: 'alpha', yearMin: null, yearMax: null })));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ kind: 'count', indexVersion: VERSION, count: 304 });
  });

  it('answers 404 to anything but POST /rpc', async () => {
    expect((await get(`${worker.url}/rpc`)).status).toBe(404);
    expect((await post(`${worker.url}/other`, {})).status).toBe(404);
  });

  it('answers 400 to malformed JSON and to messages outside the protocol', async () => {
    expect((await post(`${worker.url}/rpc`, Buffer.from('{'))).status).toBe(400);
    const wrong = await post(`${worker.url}/rpc`, { protocol: PROTOCOL_VERSION + 1, request: { kind: 'identity' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toMatch(/protocol version/);
  });

  it('answers 413 to a body far larger than any protocol message', async () => {
    const r = await post(`${worker.url}/rpc`, Buffer.alloc(3 * 1024 * 1024, 0x61));
    expect(r.status).toBe(413);
  });
});
