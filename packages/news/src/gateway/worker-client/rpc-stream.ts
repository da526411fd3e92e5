import { connect, type Socket } from 'node:net';
import { encodeFrame, FrameReader, FrameType, RPC_PATH, STREAM_UPGRADE, type Frame } from '../../protocol/index.ts';

/** The stream to the worker broke or never opened: the call did not get its answer, another attempt may. */
export class StreamBroken extends Error {
  override readonly name = 'StreamBroken';
}

/** The caller's deadline passed, waiting for the stream or for the answer. */
export class DeadlinePassed extends Error {
  override readonly name = 'DeadlinePassed';
}

export interface RpcStream {
  /** Sends one envelope and resolves with its reply frame; rejects with StreamBroken, DeadlinePassed or a socket error. */
  call(envelope: string, deadline: number): Promise<Frame>;
  close(): void;
}

interface Pending {
  readonly resolve: (f: Frame) => void;
  readonly reject: (e: Error) => void;
}

const HANDSHAKE_END = '\r\n\r\n';

/**
 * One upgraded connection to a worker (protocol/stream-framing.ts) carrying every call at once, each matched to
 * its reply by id. Opened on the first call and again after it breaks; the frames of one event-loop turn leave in
 * one write. A call whose deadline passes is forgotten (its late reply is dropped), the stream stays open.
 * @example const frame = await createRpcStream('http://127.0.0.1:8081', 1000).call(envelope, performance.now() + 2000);
 */
export function createRpcStream(origin: string, connectTimeoutMs: number): RpcStream {
  const url = new URL(origin);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || 80);
  const handshake = `GET ${RPC_PATH} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: ${STREAM_UPGRADE}\r\n\r\n`;
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let ready: Socket | null = null;
  /** The socket being opened or open, for close(). */
  let current: Socket | null = null;
  let opening: Promise<Socket> | null = null;
  let closed = false;
  let corked = false;

  const failAll = (e: Error) => {
    const all = [...pending.values()];
    pending.clear();
    for (const p of all) p.reject(e);
  };

  const open = (): Promise<Socket> => new Promise<Socket>((resolve, reject) => {
    const socket = connect({ host, port });
    current = socket;
    socket.setNoDelay(true);
    let head = '';
    let upgraded = false;
    const reader = new FrameReader();
    const timer = setTimeout(() => socket.destroy(new StreamBroken(`no stream from ${origin} within ${connectTimeoutMs} ms`)), connectTimeoutMs);
    const deliver = (chunk: Buffer) => {
      for (const f of reader.push(chunk)) {
        const p = pending.get(f.id);
        if (p !== undefined) { pending.delete(f.id); p.resolve(f); }
      }
    };
    socket.once('connect', () => socket.write(handshake));
    socket.on('data', (chunk: Buffer) => {
      try {
        if (upgraded) { deliver(chunk); return; }
        head += chunk.toString('latin1');
        const end = head.indexOf(HANDSHAKE_END);
        if (end === -1) return;
        if (!head.startsWith('HTTP/1.1 101')) throw new StreamBroken(`${origin} refused the RPC stream: ${head.slice(0, head.indexOf('\r\n'))}`);
        upgraded = true;
        clearTimeout(timer);
        ready = socket;
        opening = null;
        resolve(socket);
        const rest = Buffer.from(head.slice(end + HANDSHAKE_END.length), 'latin1');
        if (rest.length > 0) deliver(rest);
      } catch (e) {
        socket.destroy(e instanceof Error ? e : new StreamBroken(String(e)));
      }
    });
    socket.on('error', () => { /* reported by 'close' below */ });
    socket.on('close', () => {
      clearTimeout(timer);
      const why = (socket.errored as Error | null) ?? new StreamBroken(`the stream to ${origin} closed`);
      if (ready === socket) ready = null;
      if (current === socket) current = null;
      if (!upgraded) { opening = null; reject(why); }
      failAll(why instanceof StreamBroken || (why as { code?: unknown }).code !== undefined ? why : new StreamBroken(why.message));
    });
  });

  const send = (socket: Socket, id: number, envelope: string) => {
    if (!corked) {
      corked = true;
      socket.cork();
      setImmediate(() => { corked = false; socket.uncork(); });
    }
    socket.write(encodeFrame(id, FrameType.request, envelope));
  };

  return {
    call(envelope, deadline) {
      if (closed) return Promise.reject(new StreamBroken('the worker client is closed'));
      const id = nextId = (nextId + 1) >>> 0;
      return new Promise<Frame>((resolve, reject) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          reject(new DeadlinePassed('deadline passed waiting for the worker'));
        }, Math.max(0, deadline - performance.now()));
        pending.set(id, {
          resolve: (f) => { clearTimeout(timer); resolve(f); },
          reject: (e) => { clearTimeout(timer); reject(e); },
        });
        if (ready !== null) { send(ready, id, envelope); return; }
        opening ??= open();
        opening.then((socket) => { if (pending.has(id)) send(socket, id, envelope); }, (e: Error) => {
          const p = pending.get(id);
          if (p !== undefined) { pending.delete(id); p.reject(e); }
        });
      });
    },
    close() {
      closed = true;
      current?.destroy();
      failAll(new StreamBroken('the worker client is closed'));
    },
  };
}
