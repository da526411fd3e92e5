import { connect, type Socket } from 'node:net';
import { encodeFrame, FrameReader, FrameType, RPC_PATH, STREAM_UPGRADE } from '../../protocol/index.ts';
import { Outbox } from './outbox.ts';

/** The stream to the worker broke or never opened: the call did not get its answer, another attempt may. */
export class StreamBroken extends Error {
  override readonly name = 'StreamBroken';
}

/** The caller's deadline passed, waiting for the stream or for the answer. */
export class DeadlinePassed extends Error {
  override readonly name = 'DeadlinePassed';
}

/** The caller's signal aborted (its HTTP client went away) before the answer. */
export class CallCancelled extends Error {
  override readonly name = 'CallCancelled';
}

/** A reply frame's type and its payload, decoded. */
export interface StreamReply {
  readonly type: number;
  readonly text: string;
}

export interface RpcStream {
  /**
   * Sends one envelope and resolves with its reply; rejects with StreamBroken, DeadlinePassed, CallCancelled or a
   * socket error. Past the deadline or once `signal` aborts, the worker is told to stop (a cancel frame).
   */
  call(envelope: string, deadline: number, signal?: AbortSignal): Promise<StreamReply>;
  close(): void;
}

/** A call waiting for its reply: the promise's own settle functions, no wrapper closures per call. */
interface Pending {
  readonly resolve: (r: StreamReply) => void;
  readonly reject: (e: Error) => void;
  readonly deadline: number;
  /** Only for calls made with a signal (v2): the listener to remove once the call settles. */
  readonly signal?: AbortSignal;
  onAbort?: () => void;
}

const HANDSHAKE_END = '\r\n\r\n';
/** Each stream's read buffer, reused for every read (a larger reply arrives in several reads). */
const READ_BYTES = 64 * 1024;

/**
 * One upgraded connection to a worker (protocol/stream-framing.ts) carrying every call at once, each matched to
 * its reply by id. Opened on the first call and again after it breaks; frames leave in batches (outbox.ts). A call
 * whose deadline passes is forgotten (its late reply is dropped), the stream stays open. One
 * timer per stream, armed for the earliest deadline, expires calls (a timer per call cost a few µs on every call
 * of a fanned-out request, BENCHMARKS.md "News scale-out").
 * @example const frame = await createRpcStream('http://127.0.0.1:8081', 1000).call(envelope, performance.now() + 2000);
 */
export function createRpcStream(origin: string, connectTimeoutMs: number): RpcStream {
  const url = new URL(origin);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || 80);
  const handshake = `GET ${RPC_PATH} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: ${STREAM_UPGRADE}\r\n\r\n`;
  const pending = new Map<number, Pending>();
  let nextId = 0;
  let ready: Outbox | null = null;
  /** The socket being opened or open, for close(). */
  let current: Socket | null = null;
  let opening: Promise<Outbox> | null = null;
  let closed = false;
  const live = (id: number, now: number) => (pending.get(id)?.deadline ?? -Infinity) > now;
  /** Removes a call from `pending` (and its abort listener): it settles now, once. */
  const take = (id: number): Pending | undefined => {
    const p = pending.get(id);
    if (p === undefined) return undefined;
    pending.delete(id);
    if (p.onAbort !== undefined) p.signal?.removeEventListener('abort', p.onAbort);
    return p;
  };
  let expiry: NodeJS.Timeout | null = null;
  let expiryAt = Infinity;

  /** Rejects every call past its deadline and re-arms for the earliest one left. */
  const expire = () => {
    expiry = null;
    expiryAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const [id, p] of pending) {
      if (p.deadline <= now) {
        take(id);
        p.reject(new DeadlinePassed('deadline passed waiting for the worker'));
        // The worker stops at the same deadline by itself (budgetMs); this covers the time the call waited here.
        ready?.cancel(id);
      } else if (p.deadline < next) next = p.deadline;
    }
    if (next !== Infinity) arm(next);
  };

  /** Makes sure the expiry timer fires by `deadline` (deadlines mostly arrive in increasing order: rarely re-armed). */
  const arm = (deadline: number) => {
    if (deadline >= expiryAt) return;
    if (expiry !== null) clearTimeout(expiry);
    expiryAt = deadline;
    expiry = setTimeout(expire, Math.max(0, deadline - performance.now()));
    // The socket of a pending call keeps the process alive; this timer alone must not.
    expiry.unref();
  };

  const failAll = (e: Error) => {
    for (const id of [...pending.keys()]) take(id)?.reject(e);
  };

  const open = (): Promise<Outbox> =>
    new Promise<Outbox>((resolve, reject) => {
      let head = '';
      let upgraded = false;
      const reader = new FrameReader();
      const readBuffer = Buffer.allocUnsafe(READ_BYTES);
      // Decoded at once: the payload is a view of readBuffer, which the next read overwrites.
      const deliver = (id: number, type: number, payload: Buffer) => {
        take(id)?.resolve({ type, text: payload.toString('utf8') });
      };
      const onRead = (n: number): boolean => {
        // Thrown from here, an error would be uncaught (no stream around this callback): destroy the socket instead.
        try {
          if (upgraded) {
            reader.push(readBuffer.subarray(0, n), deliver);
            return true;
          }
          head += readBuffer.toString('latin1', 0, n);
          const end = head.indexOf(HANDSHAKE_END);
          if (end === -1) return true;
          if (!head.startsWith('HTTP/1.1 101'))
            throw new StreamBroken(`${origin} refused the RPC stream: ${head.slice(0, head.indexOf('\r\n'))}`);
          upgraded = true;
          clearTimeout(timer);
          ready = outbox;
          opening = null;
          resolve(outbox);
          // Everything after the head is in this read: the reads before it did not complete the head.
          const rest = head.length - end - HANDSHAKE_END.length;
          if (rest > 0) reader.push(readBuffer.subarray(n - rest, n), deliver);
        } catch (e) {
          socket.destroy(e instanceof Error ? e : new StreamBroken(String(e)));
        }
        return true;
      };
      // onread: Node reads into readBuffer and calls onRead, without a Buffer, a stream push and a 'data' event per read.
      // End of stream, errors and close still arrive as the socket's events.
      const socket = connect({ host, port, onread: { buffer: readBuffer, callback: onRead } });
      current = socket;
      socket.setNoDelay(true);
      const outbox = new Outbox(socket, live);
      const timer = setTimeout(
        () => socket.destroy(new StreamBroken(`no stream from ${origin} within ${connectTimeoutMs} ms`)),
        connectTimeoutMs,
      );
      socket.once('connect', () => socket.write(handshake));
      socket.on('error', () => {
        /* reported by 'close' below */
      });
      socket.on('close', () => {
        clearTimeout(timer);
        const why = (socket.errored as Error | null) ?? new StreamBroken(`the stream to ${origin} closed`);
        if (ready === outbox) ready = null;
        if (current === socket) current = null;
        if (!upgraded) {
          opening = null;
          reject(why);
        }
        failAll(
          why instanceof StreamBroken || (why as { code?: unknown }).code !== undefined
            ? why
            : new StreamBroken(why.message),
        );
      });
    });

  return {
    call(envelope, deadline, signal) {
      if (closed) return Promise.reject(new StreamBroken('the worker client is closed'));
      if (signal?.aborted === true) return Promise.reject(new CallCancelled('the caller went away'));
      const id = (nextId = (nextId + 1) >>> 0);
      return new Promise<StreamReply>((resolve, reject) => {
        const p: Pending = signal === undefined ? { resolve, reject, deadline } : { resolve, reject, deadline, signal };
        pending.set(id, p);
        if (signal !== undefined) {
          p.onAbort = () => {
            take(id)?.reject(new CallCancelled('the caller went away'));
            ready?.cancel(id);
          };
          signal.addEventListener('abort', p.onAbort, { once: true });
        }
        arm(deadline);
        if (ready !== null) {
          ready.add(id, encodeFrame(id, FrameType.request, envelope));
          return;
        }
        opening ??= open();
        opening.then(
          (outbox) => {
            if (pending.has(id)) outbox.add(id, encodeFrame(id, FrameType.request, envelope));
          },
          (e: Error) => {
            take(id)?.reject(e);
          },
        );
      });
    },
    close() {
      closed = true;
      if (expiry !== null) clearTimeout(expiry);
      current?.destroy();
      failAll(new StreamBroken('the worker client is closed'));
    },
  };
}
