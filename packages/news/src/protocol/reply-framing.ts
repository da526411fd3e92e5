import type { WorkerReply } from './messages.ts';

/**
 * How a reply travels over HTTP. Most replies are one JSON document. A successful v2 reply carries the public
 * response already encoded as JSON text (up to ~3 MB for 50,000 occurrences); embedding it in the JSON envelope
 * would escape every quote on the worker and unescape it on the gateway, so it travels as a "split" body instead:
 * the envelope (without the text) on the first line, then the text as it is. JSON.stringify never emits a raw
 * newline, so the first newline ends the envelope.
 */
export const SPLIT_REPLY_TYPE = 'application/x-news-rpc-split';
const JSON_TYPE = 'application/json';

export function encodeReply(reply: WorkerReply): { readonly contentType: string; readonly body: string } {
  if ('outcome' in reply && reply.outcome.ok) {
    const { outcome, ...envelope } = reply;
    return {
      contentType: SPLIT_REPLY_TYPE,
      body: `${JSON.stringify({ ...envelope, outcome: { ok: true } })}\n${outcome.json}`,
    };
  }
  return { contentType: JSON_TYPE, body: JSON.stringify(reply) };
}

export function decodeReply(contentType: string | string[] | undefined, text: string): WorkerReply {
  if (contentType !== SPLIT_REPLY_TYPE) return JSON.parse(text) as WorkerReply;
  const newline = text.indexOf('\n');
  const envelope = JSON.parse(text.slice(0, newline)) as Omit<WorkerReply, 'outcome'>;
  return { ...envelope, outcome: { ok: true, json: text.slice(newline + 1) } } as WorkerReply;
}
