import type { RpcEnvelope, ShardSelection, WorkerRequest } from './messages.ts';
import { PROTOCOL_VERSION } from './messages.ts';
import { decodeV2Request, isV2Kind, V2DecodeError } from './v2-decode.ts';

/** A message that does not follow the protocol (the worker answers it with `bad_request`). */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
function str(o: Json, key: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new ProtocolError(`${key} must be a string`);
  return v;
}
function nat(o: Json, key: string): number {
  const v = o[key];
  // Not limited to safe integers: a client may send any JSON integer, and the worker answers out-of-range ones.
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
    throw new ProtocolError(`${key} must be a non-negative integer`);
  return v;
}
function yearOrNull(o: Json, key: string): number | null {
  const v = o[key];
  if (v === null || v === undefined) return null;
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new ProtocolError(`${key} must be an integer or null`);
  return v;
}
function selection(o: Json): ShardSelection {
  return { index: str(o, 'index'), yearMin: yearOrNull(o, 'yearMin'), yearMax: yearOrNull(o, 'yearMax') };
}

/**
 * Checks a decoded JSON value against the protocol and returns the typed request.
 * The gateway validated the public request already; this guards the process boundary itself.
 */
export function decodeEnvelope(value: unknown): WorkerRequest {
  if (!isObject(value)) throw new ProtocolError('envelope must be an object');
  if (value.protocol !== PROTOCOL_VERSION) {
    throw new ProtocolError(
      `protocol version ${String(value.protocol)} is not ${PROTOCOL_VERSION}; run gateway and worker from the same build`,
    );
  }
  const r = value.request;
  if (!isObject(r)) throw new ProtocolError('request must be an object');
  switch (r.kind) {
    case 'identity':
      return { kind: 'identity' };
    case 'count':
      return { kind: 'count', ...selection(r), query: str(r, 'query') };
    case 'find':
      return { kind: 'find', ...selection(r), query: str(r, 'query') };
    case 'get_doc':
      return {
        kind: 'get_doc',
        ...selection(r),
        query: str(r, 'query'),
        s: nat(r, 's'),
        rank: nat(r, 'rank'),
        maxCtxLen: nat(r, 'maxCtxLen'),
      };
    default:
      if (isV2Kind(r.kind)) {
        try {
          return decodeV2Request(r.kind, r.body);
        } catch (e) {
          if (e instanceof V2DecodeError) throw new ProtocolError(e.message);
          throw e;
        }
      }
      throw new ProtocolError(`unknown request kind ${JSON.stringify(r.kind)}`);
  }
}

/** The envelope's shard restriction (null: every served shard); checked at the same boundary as the request. */
export function decodeShardRestriction(value: unknown): readonly string[] | null {
  if (!isObject(value) || value.shards === undefined) return null;
  const s = value.shards;
  if (!Array.isArray(s) || !s.every((x): x is string => typeof x === 'string'))
    throw new ProtocolError('shards must be a list of shard ids');
  return s;
}

/** The envelope's time budget in ms (Infinity when absent); checked at the same boundary as the request. */
export function decodeBudget(value: unknown): number {
  if (!isObject(value) || value.budgetMs === undefined) return Infinity;
  const b = value.budgetMs;
  if (typeof b !== 'number' || !(b >= 0)) throw new ProtocolError('budgetMs must be a non-negative number');
  return b;
}

export function encodeEnvelope(request: WorkerRequest, shards?: readonly string[], budgetMs?: number): string {
  // JSON.stringify leaves out the fields that are undefined: one object, no spreads, on every worker call.
  return JSON.stringify({ protocol: PROTOCOL_VERSION, request, shards, budgetMs } satisfies RpcEnvelope);
}
