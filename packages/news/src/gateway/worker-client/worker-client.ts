import {
  decodeReply,
  encodeEnvelope,
  FrameType,
  SPLIT_REPLY_TYPE,
  type ReplyFor,
  type WorkerError,
  type WorkerReply,
  type WorkerRequest,
  type WorkerRequestKind,
} from '../../protocol/index.ts';
import { GatewayError } from '../errors/index.ts';
import { AdmissionTimeout, createAdmission } from './admission.ts';
import { CallCancelled, createRpcStream, DeadlinePassed, StreamBroken, type StreamReply } from './rpc-stream.ts';

export interface WorkerClientOptions {
  /**
   * Default budget of one call from the moment it is made: waiting for a connection, every attempt and the retry
   * pauses together. A slow or frozen worker becomes a 503, never a hang.
   */
  readonly timeoutMs: number;
  /** Calls in flight at once on the stream (the rest wait in admission.ts, each until its deadline). */
  readonly connections: number;
  /** Extra attempts after a connection failure (reads are idempotent, so a retry is safe). */
  readonly retries: number;
  readonly retryDelayMs: number;
}

export const defaultWorkerClientOptions: WorkerClientOptions = {
  timeoutMs: 2000,
  connections: 16,
  retries: 2,
  retryDelayMs: 25,
};

/** A worker reply that is a refusal (unknown index, rank outside the interval, …), for the route to map. */
export type Outcome<K extends WorkerRequestKind> =
  ReplyFor<K> | { readonly kind: 'error'; readonly indexVersion: string; readonly error: WorkerError };

export interface WorkerClient {
  /**
   * `deadline` (a `performance.now()` time) is when the caller stops waiting, so that one public request making
   * several calls (v2: release identity, then the call) keeps one budget; default: now + `timeoutMs`. The worker
   * gets it too and stops working then. `signal` aborts the call and the worker's work (the HTTP client went away).
   */
  call<K extends WorkerRequestKind>(
    request: Extract<WorkerRequest, { kind: K }>,
    deadline?: number,
    shards?: readonly string[],
    signal?: AbortSignal,
  ): Promise<Outcome<K>>;
  /** The budget a public request gets for all its worker calls together (GATEWAY_WORKER_TIMEOUT_MS). */
  readonly timeoutMs: number;
  /** The release the worker said it serves in its latest reply, or null before the first reply. */
  readonly lastSeenIndexVersion: string | null;
  /** Shards of the release without a healthy replica (always empty for one worker serving the whole release). */
  missingShards(): readonly string[];
  /** Each replica with its state and served shards (empty for the direct client to one worker). */
  replicas(): readonly {
    readonly url: string;
    readonly status: string;
    readonly reason: string;
    readonly shards: readonly string[];
  }[];
  close(): Promise<void>;
}

/** Failures worth another attempt: the stream never carried the request (or died under it). */
function isConnectionFailure(e: unknown): boolean {
  if (e instanceof StreamBroken) return true;
  const code = (e as { code?: unknown } | null)?.code;
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    code === 'ETIMEDOUT' ||
    code === 'EHOSTUNREACH'
  );
}

function isTimeout(e: unknown): boolean {
  return e instanceof DeadlinePassed || e instanceof AdmissionTimeout;
}

/** The reply a frame carries, or a GatewayError when the worker could not answer (HTTP 400/500 over POST /rpc). */
function replyOf({ type, text }: StreamReply): WorkerReply {
  switch (type) {
    case FrameType.json:
      return decodeReply('application/json', text);
    case FrameType.split:
      return decodeReply(SPLIT_REPLY_TYPE, text);
    case FrameType.refused:
      throw new GatewayError(
        'worker_unavailable',
        'The search worker refused the request (protocol mismatch?); try again shortly.',
      );
    default:
      throw new GatewayError('worker_unavailable', 'The search worker failed to answer; try again shortly.');
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The envelope of the latest call: a fanned-out request goes to every worker as the same object, encoded once. */
let lastEncoded: {
  request: WorkerRequest;
  shards: readonly string[] | undefined;
  deadline: number;
  body: string;
} | null = null;
/**
 * The envelope with the time left until `deadline` as its budget. Encoded before the call may wait for a slot, so
 * the worker's deadline can fall a little after the gateway's: the stream cancels the call at its deadline.
 */
function encodeOnce(request: WorkerRequest, shards: readonly string[] | undefined, deadline: number): string {
  if (lastEncoded?.request === request && lastEncoded.shards === shards && lastEncoded.deadline === deadline)
    return lastEncoded.body;
  const body = encodeEnvelope(request, shards, Math.max(0, Math.ceil(deadline - performance.now())));
  lastEncoded = { request, shards, deadline, body };
  return body;
}

/**
 * Calls the worker over one multiplexed stream (rpc-stream.ts), at most `connections` calls in flight (admission.ts).
 * Connection failures are retried while the deadline allows; a timeout is not retried (the worker is busy:
 * piling on would not help) and becomes a 503 at once. The stream reopens on the next call, so the gateway
 * recovers by itself when the worker is back.
 * @example const reply = await client.call({ kind: 'count', index: 'news', query: 'x', yearMin: null, yearMax: null });
 */
export function createWorkerClient(
  origin: string,
  opts: WorkerClientOptions = defaultWorkerClientOptions,
): WorkerClient {
  const stream = createRpcStream(origin, Math.min(opts.timeoutMs, 1000));
  const admission = createAdmission(opts.connections);
  let lastSeen: string | null = null;

  return {
    get lastSeenIndexVersion() {
      return lastSeen;
    },
    timeoutMs: opts.timeoutMs,
    missingShards: () => [],
    replicas: () => [],
    async call(request, deadline = performance.now() + opts.timeoutMs, shards, signal) {
      const body = encodeOnce(request, shards, deadline);
      for (let tries = 0; ; tries++) {
        try {
          // One attempt inside a connection slot (inline: an async helper per call cost a promise per worker call).
          const wait = admission.acquire(deadline);
          if (wait !== null) await wait;
          let frame: StreamReply;
          try {
            if (performance.now() >= deadline) throw new DeadlinePassed('deadline passed before the request was sent');
            frame = await stream.call(body, deadline, signal);
          } finally {
            admission.release();
          }
          const reply = replyOf(frame);
          lastSeen = reply.indexVersion;
          if (reply.kind !== request.kind && reply.kind !== 'error') {
            throw new GatewayError(
              'worker_unavailable',
              `The search worker answered ${reply.kind} to ${request.kind}.`,
            );
          }
          return reply as Outcome<typeof request.kind>;
        } catch (e) {
          if (e instanceof GatewayError) throw e;
          if (e instanceof CallCancelled)
            throw new GatewayError('worker_unavailable', 'The request was cancelled: its client went away.');
          const pause = opts.retryDelayMs * (tries + 1);
          if (isConnectionFailure(e) && tries < opts.retries && performance.now() + pause < deadline) {
            await sleep(pause);
            continue;
          }
          // Past the deadline, whichever timer fired first (the stream's connect timeout equals a short deadline),
          // the worker did not answer in time: a worker that accepts and stays silent is not an unreachable one.
          if (isTimeout(e) || performance.now() >= deadline) {
            throw new GatewayError(
              'worker_unavailable',
              `The search worker did not answer within ${opts.timeoutMs} ms; try again shortly.`,
            );
          }
          throw new GatewayError('worker_unavailable', 'The search worker is not reachable; try again shortly.');
        }
      }
    },
    close: async () => {
      stream.close();
    },
  };
}
