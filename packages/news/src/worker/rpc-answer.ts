import type { Logger } from 'pino';
import {
  decodeBudget,
  decodeEnvelope,
  decodeShardRestriction,
  encodeReply,
  ProtocolError,
  type WorkerReply,
} from '../protocol/index.ts';
import type { WorkBudget } from '../work-budget/index.ts';
import { PendingReply } from './rpc-handler.ts';
import type { RoutedHandler } from './shard-view.ts';

/** One RPC answered, whatever carried it (`POST /rpc` or a stream frame). */
export type RpcAnswer =
  | { readonly ok: true; readonly contentType: string; readonly body: string }
  /** The message is not a protocol message (HTTP 400). */
  | { readonly ok: false; readonly refused: true; readonly detail: string }
  /** The handler failed (HTTP 500; logged here with its cause). */
  | { readonly ok: false; readonly refused: false; readonly detail: string };

/** An answer still being computed (a v2 request); `answer` never rejects, `work.cancel()` stops it early. */
export class PendingAnswer {
  constructor(
    readonly work: WorkBudget,
    readonly answer: Promise<RpcAnswer>,
  ) {}
}

function failed(e: unknown, log: Logger): RpcAnswer {
  log.error({ err: e }, 'rpc failed');
  return { ok: false, refused: false, detail: 'internal error' };
}

const encoded = (reply: WorkerReply): RpcAnswer => ({ ok: true, ...encodeReply(reply) });

/** Decodes an envelope, runs it and frames the reply; never throws. */
export function answerRpc(handle: RoutedHandler, text: string, log: Logger): RpcAnswer | PendingAnswer {
  let reply: WorkerReply | PendingReply;
  try {
    const envelope: unknown = JSON.parse(text);
    reply = handle(decodeEnvelope(envelope), decodeShardRestriction(envelope), decodeBudget(envelope));
  } catch (e) {
    if (e instanceof ProtocolError || e instanceof SyntaxError) return { ok: false, refused: true, detail: e.message };
    return failed(e, log);
  }
  if (reply instanceof PendingReply)
    return new PendingAnswer(
      reply.work,
      reply.reply.then(encoded).catch((e: unknown) => failed(e, log)),
    );
  return encoded(reply);
}
