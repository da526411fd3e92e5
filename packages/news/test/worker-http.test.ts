import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRelease } from '../src/release/index.ts';
import { startWorker, type RunningServer } from '../src/worker/index.ts';
import { encodeEnvelope, encodeFrame, FrameReader, FrameType, PROTOCOL_VERSION } from '../src/protocol/index.ts';
import { createWorkerClient } from '../src/gateway/worker-client/index.ts';
import { buildFixtureRelease, get, post, silentLogger } from './gateway-harness.ts';
import { FIXTURE } from './gateway-fixture.ts';

/** A frame the raw stream received, its payload copied out of the reader's input. */
interface Frame {
  readonly id: number;
  readonly type: number;
  readonly payload: Buffer;
}

const VERSION = 'fixture-worker-http';
let worker: RunningServer;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const built = await buildFixtureRelease(FIXTURE, VERSION);
  cleanup = built.cleanup;
  worker = await startWorker(
    await openRelease(built.dir, { expectedIndexVersion: VERSION }),
    { host: '127.0.0.1', port: 0 },
    silentLogger,
  );
});
afterAll(async () => {
  await worker?.close();
  await cleanup?.();
});

describe('worker HTTP framing', () => {
  it('listens on loopback and answers a protocol message on POST /rpc', async () => {
    expect(new URL(worker.url).hostname).toBe('127.0.0.1');
    const r = await post(
      `${worker.url}/rpc`,
      Buffer.from(encodeEnvelope({ kind: 'count', index: 'news', query: 'alpha', yearMin: null, yearMax: null })),
    );
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

/** A raw stream: the handshake's status line, then every frame the worker sends until it closes or `want` arrived. */
function rawStream(
  path: string,
  upgrade: string,
  frames: Buffer[],
  want: number,
): Promise<{ status: string; frames: Frame[]; closed: boolean }> {
  const { hostname, port } = new URL(worker.url);
  return new Promise((resolve) => {
    const s: Socket = connect({ host: hostname, port: Number(port) });
    let head = '';
    let status = '';
    const reader = new FrameReader();
    const got: Frame[] = [];
    const done = (closed: boolean) => {
      s.destroy();
      resolve({ status, frames: got, closed });
    };
    s.once('connect', () =>
      s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: ${upgrade}\r\n\r\n`),
    );
    s.on('data', (chunk: Buffer) => {
      if (status === '') {
        head += chunk.toString('latin1');
        const end = head.indexOf('\r\n\r\n');
        if (end === -1) return;
        status = head.slice(0, head.indexOf('\r\n'));
        if (!status.startsWith('HTTP/1.1 101')) return;
        for (const f of frames) s.write(f);
        chunk = Buffer.from(head.slice(end + 4), 'latin1');
      }
      reader.push(chunk, (id, type, payload) => got.push({ id, type, payload: Buffer.from(payload) }));
      if (got.length >= want) done(false);
    });
    s.on('close', () => done(true));
    // A reset while the test still writes is the worker closing the stream.
    s.on('error', () => done(true));
  });
}

const count = (query: string) => encodeEnvelope({ kind: 'count', index: 'news', query, yearMin: null, yearMax: null });

describe('worker RPC stream (GET /rpc upgraded)', () => {
  it('answers every frame with the reply POST /rpc gives, matched by id', async () => {
    const r = await rawStream(
      '/rpc',
      'news-rpc',
      [encodeFrame(7, FrameType.request, count('alpha')), encodeFrame(9, FrameType.request, count('zzzunfindable'))],
      2,
    );
    expect(r.status).toBe('HTTP/1.1 101 Switching Protocols');
    const byId = new Map(r.frames.map((f) => [f.id, f]));
    expect(byId.get(7)?.type).toBe(FrameType.json);
    expect(JSON.parse(byId.get(7)!.payload.toString())).toEqual({ kind: 'count', indexVersion: VERSION, count: 304 });
    expect(JSON.parse(byId.get(9)!.payload.toString())).toEqual({ kind: 'count', indexVersion: VERSION, count: 0 });
  });

  it('refuses malformed JSON, another protocol version and a non-request frame, and keeps the stream open', async () => {
    const wrong = JSON.stringify({ protocol: PROTOCOL_VERSION - 1, request: { kind: 'identity' } });
    const r = await rawStream(
      '/rpc',
      'news-rpc',
      [
        encodeFrame(1, FrameType.request, '{'),
        encodeFrame(2, FrameType.request, wrong),
        encodeFrame(3, FrameType.json, '{}'),
        encodeFrame(4, FrameType.request, count('alpha')),
      ],
      4,
    );
    expect(r.closed).toBe(false);
    expect(r.frames.map((f) => [f.id, f.type])).toEqual([
      [1, FrameType.refused],
      [2, FrameType.refused],
      [3, FrameType.refused],
      [4, FrameType.json],
    ]);
    expect(r.frames[1]!.payload.toString()).toMatch(/protocol version/);
  });

  it('closes the stream on a frame over the 2 MiB request limit, and answers one at the limit', async () => {
    const limit = 2 * 1024 * 1024;
    const over = await rawStream('/rpc', 'news-rpc', [encodeFrame(1, FrameType.request, 'x'.repeat(limit + 1))], 1);
    expect(over).toMatchObject({ closed: true, frames: [] });
    const at = await rawStream('/rpc', 'news-rpc', [encodeFrame(1, FrameType.request, 'x'.repeat(limit))], 1);
    expect(at.frames.map((f) => f.type)).toEqual([FrameType.refused]);
  });

  it('answers 404 to an upgrade on another path or to another protocol', async () => {
    expect((await rawStream('/other', 'news-rpc', [], 1)).status).toBe('HTTP/1.1 404 Not Found');
    expect((await rawStream('/rpc', 'websocket', [], 1)).status).toBe('HTTP/1.1 404 Not Found');
  });

  it('carries concurrent gateway calls over one stream, each with its own answer', async () => {
    const client = createWorkerClient(worker.url, { timeoutMs: 2000, connections: 4, retries: 0, retryDelayMs: 0 });
    try {
      const queries = ['alpha', 'zzzunfindable', 'alpha', 'beta', 'alpha', 'gamma', 'zzzunfindable', 'alpha'];
      const replies = await Promise.all(
        queries.map((query) => client.call({ kind: 'count', index: 'news', query, yearMin: null, yearMax: null })),
      );
      const one = await Promise.all(
        queries.map(
          async (query) => await client.call({ kind: 'count', index: 'news', query, yearMin: null, yearMax: null }),
        ),
      );
      expect(replies).toEqual(one);
      expect(replies[0]).toEqual({ kind: 'count', indexVersion: VERSION, count: 304 });
      expect(replies[1]).toEqual({ kind: 'count', indexVersion: VERSION, count: 0 });
    } finally {
      await client.close();
    }
  });
});
