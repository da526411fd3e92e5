import { createServer, type AddressInfo, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame, FrameReader, FrameType } from '../../protocol/index.ts';
import { CallCancelled, createRpcStream, DeadlinePassed, StreamBroken } from './rpc-stream.ts';

/**
 * A worker end of the stream on loopback that answers frames whose payload starts with "answer" (echoing it), ends
 * the stream on "end" and resets it on "reset", and never answers the others, as a worker stuck on one call would.
 * Counts the request frames it received, and notes the payload of each call the gateway cancelled.
 */
let server: Server;
let origin = '';
let received = 0;
const cancelled: string[] = [];

beforeAll(async () => {
  server = createServer((socket) => {
    let head = '';
    const reader = new FrameReader();
    const textOf = new Map<number, string>();
    const onFrames = (chunk: Buffer) => {
      reader.push(chunk, (id, type, payload) => {
        if (type === FrameType.cancel) {
          cancelled.push(textOf.get(id) ?? `unknown id ${id}`);
          return;
        }
        received++;
        const text = payload.toString('utf8');
        textOf.set(id, text);
        if (text.startsWith('answer')) socket.write(encodeFrame(id, FrameType.json, text));
        else if (text === 'end') socket.end();
        else if (text === 'reset') socket.resetAndDestroy();
      });
    };
    socket.on('data', (chunk: Buffer) => {
      if (head.endsWith('\r\n\r\n')) {
        onFrames(chunk);
        return;
      }
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
    const outcome =
      e instanceof DeadlinePassed
        ? 'deadline'
        : e instanceof StreamBroken
          ? 'broken'
          : e instanceof CallCancelled
            ? 'cancelled'
            : String(e);
    return { ms: performance.now() - start, outcome };
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
      const reply = await stream.call('answer after', performance.now() + 1000);
      expect(reply.text).toBe('answer after');
    } finally {
      stream.close();
    }
  });

  it('sends the calls of one event-loop turn together and does not send a call already past its deadline', async () => {
    const stream = createRpcStream(origin, 1000);
    try {
      await stream.call('answer open', performance.now() + 1000);
      const before = received;
      const replies = await Promise.all(
        ['answer 1', 'answer 2', 'answer 3'].map((t) => stream.call(t, performance.now() + 1000)),
      );
      expect(replies.map((r) => r.text)).toEqual(['answer 1', 'answer 2', 'answer 3']);
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

  it('tells the worker to stop a call past its deadline, and a call whose caller went away', async () => {
    const stream = createRpcStream(origin, 1000);
    try {
      await stream.call('answer warm-up', performance.now() + 1000);
      const start = performance.now();
      const expired = settle(stream.call('hang until deadline', start + 50), start);
      const caller = new AbortController();
      const abandoned = settle(stream.call('hang until abort', start + 5000, caller.signal), start);
      setTimeout(() => caller.abort(), 20);
      expect((await abandoned).outcome).toBe('cancelled');
      expect((await expired).outcome).toBe('deadline');
      // Frames leave in the next turn; a probe answered after them means the worker has read them.
      await stream.call('answer probe', performance.now() + 1000);
      expect(cancelled.slice(-2)).toEqual(['hang until abort', 'hang until deadline']);
      // A call whose caller was gone before it started is not sent at all.
      const before = received;
      expect(
        (await settle(stream.call('answer never', performance.now() + 1000, AbortSignal.abort()), 0)).outcome,
      ).toBe('cancelled');
      await stream.call('answer probe', performance.now() + 1000);
      expect(received - before).toBe(1);
    } finally {
      stream.close();
    }
  });

  it('reads a reply far larger than one read whole, and the replies after it', async () => {
    const stream = createRpcStream(origin, 1000);
    try {
      const big = `answer ${'é'.repeat(300_000)}`;
      const [large, small] = await Promise.all([
        stream.call(big, performance.now() + 2000),
        stream.call('answer small', performance.now() + 2000),
      ]);
      expect(large.text).toBe(big);
      expect(small.text).toBe('answer small');
    } finally {
      stream.close();
    }
  });

  it.each(['end', 'reset'])(
    'fails the waiting calls when the worker %ss the stream, and opens a new one for the next call',
    async (how) => {
      const stream = createRpcStream(origin, 1000);
      try {
        await stream.call('answer open', performance.now() + 1000);
        const start = performance.now();
        const waiting = settle(stream.call('hang', start + 3000), start);
        const closing = settle(stream.call(how, start + 3000), start);
        for (const s of [await waiting, await closing]) {
          // At once, not at the deadline.
          expect(s.outcome).toMatch(/^broken$|ECONNRESET/);
          expect(s.ms).toBeLessThan(1500);
        }
        expect((await stream.call('answer again', performance.now() + 1000)).text).toBe('answer again');
      } finally {
        stream.close();
      }
    },
  );

  it('fails a call at once when the port answers the upgrade with anything but 101', async () => {
    // Reading (resume) lets this end see the gateway's close, so that the server can close.
    const refusing = createServer((socket) =>
      socket.resume().end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n'),
    );
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const stream = createRpcStream(`http://127.0.0.1:${(refusing.address() as AddressInfo).port}`, 1000);
    try {
      const start = performance.now();
      const s = await settle(stream.call('answer', start + 3000), start);
      expect(s.outcome).toBe('broken');
      expect(s.ms).toBeLessThan(900);
    } finally {
      stream.close();
      await new Promise<void>((resolve) => refusing.close(() => resolve()));
    }
  });
});
