import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame, FrameReader, FrameType } from '../../protocol/index.ts';
import { createRpcStream, DeadlinePassed } from './rpc-stream.ts';

/**
 * A worker end of the stream on loopback that answers frames whose payload starts with "answer" (echoing it) and
 * never answers the others, as a worker stuck on one call would. Counts the request frames it received.
 */
let server: Server;
let origin = '';
let received = 0;

beforeAll(async () => {
  server = createServer((socket) => {
    let head = '';
    const reader = new FrameReader();
    const onFrames = (chunk: Buffer) => {
      for (const f of reader.push(chunk)) {
        received++;
        const text = f.payload.toString('utf8');
        if (text.startsWith('answer')) socket.write(encodeFrame(f.id, FrameType.json, text));
      }
    };
    socket.on('data', (chunk: Buffer) => {
      if (head.endsWith('\r\n\r\n')) { onFrames(chunk); return; }
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) return;
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: news-rpc\r\nConnection: Upgrade\r\n\r\n');
      const rest = Buffer.from(head.slice(end + 4), 'latin1');
      head = head.slice(0, end + 4);
      if (rest.length > 0) onFrames(rest);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** When the call settled, in ms after `start`, and how. */
async function settle(p: Promise<unknown>, start: number): Promise<{ ms: number; outcome: string }> {
  try {
    await p;
    return { ms: performance.now() - start, outcome: 'answered' };
  } catch (e) {
    return { ms: performance.now() - start, outcome: e instanceof DeadlinePassed ? 'deadline' : String(e) };
  }
}

describe('rpc stream', () => {
  it('expires each unanswered call at its own deadline, earliest first whatever the order, and keeps the stream open', async () => {
    const stream = createRpcStream(origin, 1000);
    try {
      await stream.call('answer warm-up', performance.now() + 1000);
      const start = performance.now();
      // The later deadline first, so the one timer must be re-armed for the earlier one.
      const late = settle(stream.call('hang late', start + 2000), start);
      const early = settle(stream.call('hang early', start + 80), start);
      const answered = settle(stream.call('answer now', start + 3000), start);
      expect((await answered).outcome).toBe('answered');
      const e = await early;
      expect(e.outcome).toBe('deadline');
      expect(e.ms).toBeGreaterThanOrEqual(75);
      // Well before the later deadline (a timer armed only for that one would fire at 2,000 ms); loose for a busy machine.
      expect(e.ms).toBeLessThan(1500);
      const l = await late;
      expect(l.outcome).toBe('deadline');
      expect(l.ms).toBeGreaterThanOrEqual(1995);
      // The stream is still up: a worker busy with one call is not broken.
      const frame = await stream.call('answer after', performance.now() + 1000);
      expect(frame.payload.toString('utf8')).toBe('answer after');
    } finally {
      stream.close();
    }
  });

  it('sends the calls of one event-loop turn together and does not send a call already past its deadline', async () => {
    const stream = createRpcStream(origin, 1000);
    try {
      await stream.call('answer open', performance.now() + 1000);
      const before = received;
      const replies = await Promise.all(['answer 1', 'answer 2', 'answer 3'].map((t) => stream.call(t, performance.now() + 1000)));
      expect(replies.map((f) => f.payload.toString('utf8'))).toEqual(['answer 1', 'answer 2', 'answer 3']);
      expect(received - before).toBe(3);
      // Expired before the turn ends: rejected, and the worker never sees it.
      const gone = await settle(stream.call('answer never', performance.now() - 1), performance.now());
      expect(gone.outcome).toBe('deadline');
      await stream.call('answer probe', performance.now() + 1000);
      expect(received - before).toBe(4);
    } finally {
      stream.close();
    }
  });
});
