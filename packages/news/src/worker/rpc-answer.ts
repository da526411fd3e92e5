import type { Logger } from 'pino';
import { decodeEnvelope, decodeShardRestriction, encodeReply, ProtocolError, type WorkerReply } from '../protocol/index.ts';
import type { RoutedHandler } from './shard-view.ts';

/** One RPC answered, whatever carried it (`POST /rpc` or a stream frame). */
export type RpcAnswer =
  | { readonly ok: true; readonly contentType: string; readonly body: string }
  /** The message is not a protocol message (HTTP 400). */
  | { readonly ok: false; readonly refused: true; readonly detail: string }
  /** The handler failed (HTTP 500; logged here with its cause). */
  | { readonly ok: false; readonly refused: false; readonly detail: string };

/** Decodes an envelope, runs it and frames the reply; never throws. */
export function answerRpc(handle: RoutedHandler, text: string, log: Logger): RpcAnswer {
  let reply: WorkerReply;
  try {
    const envelope: unknown = JSON.parse(text);
    reply = handle(decodeEnvelope(envelope), decodeShardRestriction(envelope));
  } catch (e) {
    if (e instanceof ProtocolError || e instanceof SyntaxError) return { ok: false, refused: true, detail: e.message };
    log.error({ err: e }, 'rpc failed');
    return { ok: false, refused: false, detail: 'internal error' };
  }
  return { ok: true, ...encodeReply(reply) };
}
