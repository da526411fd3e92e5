import { Pool, errors as undiciErrors } from 'undici';
import {
  decodeReply, encodeEnvelope, RPC_PATH,
  type ReplyFor, type WorkerError, type WorkerReply, type WorkerRequest, type WorkerRequestKind,
} from '../../protocol/index.ts';
import { GatewayError } from '../errors/index.ts';
import { AdmissionTimeout, createAdmission } from './admission.ts';

export interface WorkerClientOptions {
  /**
   * Default budget of one call from the moment it is made: waiting for a connection, every attempt and the retry
   * pauses together. A slow or frozen worker becomes a 503, never a hang.
   */
  readonly timeoutMs: number;
  readonly connections: number;
  /** Extra attempts after a connection failure (reads are idempotent, so a retry is safe). */
  readonly retries: number;
  readonly retryDelayMs: number;
}

export const defaultWorkerClientOptions: WorkerClientOptions = { timeoutMs: 2000, connections: 16, retries: 2, retryDelayMs: 25 };

/** A worker reply that is a refusal (unknown index, rank outside the interval, …), for the route to map. */
export type Outcome<K extends WorkerRequestKind> =
  | ReplyFor<K>
  | { readonly kind: 'error'; readonly indexVersion: string; readonly error: WorkerError };

export interface WorkerClient {
  /**
   * `deadline` (a `performance.now()` time) is when the caller stops waiting, so that one public request making
   * several calls (v2: release identity, then the call) keeps one budget; default: now + `timeoutMs`.
   */
  call<K extends WorkerRequestKind>(request: Extract<WorkerRequest, { kind: K }>, deadline?: number): Promise<Outcome<K>>;
  /** The budget a public request gets for all its worker calls together (GATEWAY_WORKER_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** The release the worker said it serves in its latest reply, or null before the first reply. */
  readonly lastSeenIndexVersion: string | null;
  close(): Promise<void>;
}

/** Failures worth another attempt: the connection never carried the request (or died under it). */
function isConnectionFailure(e: unknown): boolean {
  if (e instanceof undiciErrors.ConnectTimeoutError || e instanceof undiciErrors.SocketError || e instanceof undiciErrors.ClientClosedError) return true;
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET';
}

/** The caller's deadline passed, in the line for a connection or waiting for the answer. */
class DeadlinePassed extends Error {
  override readonly name = 'DeadlinePassed';
}

function isTimeout(e: unknown): boolean {
  return e instanceof DeadlinePassed || e instanceof AdmissionTimeout
    || e instanceof undiciErrors.HeadersTimeoutError || e instanceof undiciErrors.BodyTimeoutError;
}

const RPC_HEADERS = { 'content-type': 'application/json' };

/** The content type among undici's raw header list (name, value, name, value, … as Buffers). */
function contentTypeOf(rawHeaders: Buffer[]): string | undefined {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 12 && name.toString('latin1').toLowerCase() === 'content-type') return rawHeaders[i + 1]!.toString('latin1');
  }
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Calls the worker over a keep-alive pool, at most one request per connection at a time (admission.ts).
 * Connection failures are retried while the deadline allows; a timeout is not retried (the worker is busy:
 * piling on would not help) and becomes a 503 at once. undici reconnects on the next call, so the gateway
 * recovers by itself when the worker is back.
 * @example const reply = await client.call({ kind: 'count', index: 'news', query: 'x', yearMin: null, yearMax: null });
 */
export function createWorkerClient(origin: string, opts: WorkerClientOptions = defaultWorkerClientOptions): WorkerClient {
  const pool = new Pool(origin, {
    connections: opts.connections,
    pipelining: 1,
    keepAliveTimeout: 10_000,
    connect: { timeout: Math.min(opts.timeoutMs, 1000) },
    // Backstops only: the call's own deadline timer (below) ends a stuck request first.
    headersTimeout: opts.timeoutMs,
    bodyTimeout: opts.timeoutMs,
  });
  const admission = createAdmission(opts.connections);
  let lastSeen: string | null = null;

  // pool.dispatch with a plain handler instead of pool.request: the reply is one small JSON document, so the
  // Readable body stream, its promise chain and the parsed header object of pool.request are overhead
  // (undici was the largest JS item in a --cpu-prof of the gateway under the API benchmark).
  const attempt = (body: string, deadline: number): Promise<WorkerReply> => new Promise<WorkerReply>((resolve, reject) => {
    let status = 0;
    let contentType: string | undefined;
    const chunks: Buffer[] = [];
    let settled = false;
    let abort: ((err: Error) => void) | null = null;
    const timer = setTimeout(() => {
      settled = true;
      const err = new DeadlinePassed('deadline passed waiting for the worker');
      abort?.(err);
      reject(err);
    }, Math.max(0, deadline - performance.now()));
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      return true;
    };
    pool.dispatch({ method: 'POST', path: RPC_PATH, body, headers: RPC_HEADERS }, {
      onConnect(abortRequest: (err: Error) => void) {
        // Given up while connecting: end the request before it is written.
        if (settled) abortRequest(new DeadlinePassed('deadline passed while connecting'));
        else abort = abortRequest;
      },
      onHeaders(statusCode: number, rawHeaders: Buffer[]) {
        status = statusCode;
        contentType = contentTypeOf(rawHeaders);
        return true;
      },
      onData(chunk: Buffer) { chunks.push(chunk); return true; },
      onComplete() {
        if (!settle()) return;
        const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
        if (status !== 200) {
          reject(new GatewayError('worker_unavailable', `The search worker answered HTTP ${status}; try again shortly.`));
          return;
        }
        try { resolve(decodeReply(contentType, text)); } catch (e) { reject(e); }
      },
      onError(err: Error) { if (settle()) reject(err); },
    });
  });

  /** One attempt inside a connection slot; the slot is freed however the attempt ends. */
  const attemptInSlot = async (body: string, deadline: number): Promise<WorkerReply> => {
    const wait = admission.acquire(deadline);
    if (wait !== null) await wait;
    if (performance.now() >= deadline) { admission.release(); throw new DeadlinePassed('deadline passed before the request was sent'); }
    try {
      return await attempt(body, deadline);
    } finally {
      admission.release();
    }
  };

  return {
    get lastSeenIndexVersion() { return lastSeen; },
    timeoutMs: opts.timeoutMs,
    async call(request, deadline = performance.now() + opts.timeoutMs) {
      const body = encodeEnvelope(request);
      for (let tries = 0; ; tries++) {
        try {
          const reply = await attemptInSlot(body, deadline);
          lastSeen = reply.indexVersion;
          if (reply.kind !== request.kind && reply.kind !== 'error') {
            throw new GatewayError('worker_unavailable', `The search worker answered ${reply.kind} to ${request.kind}.`);
          }
          return reply as Outcome<typeof request.kind>;
        } catch (e) {
          if (e instanceof GatewayError) throw e;
          const pause = opts.retryDelayMs * (tries + 1);
          if (isConnectionFailure(e) && tries < opts.retries && performance.now() + pause < deadline) { await sleep(pause); continue; }
          if (isTimeout(e)) {
            throw new GatewayError('worker_unavailable', `The search worker did not answer within ${opts.timeoutMs} ms; try again shortly.`);
          }
          throw new GatewayError('worker_unavailable', 'The search worker is not reachable; try again shortly.');
        }
      }
    },
    close: () => pool.close(),
  };
}
