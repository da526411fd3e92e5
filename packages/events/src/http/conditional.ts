// Conditional GETs (RFC 9110 §13): a strong ETag hashed from the exact bytes and the answer's own headers, so it
// changes exactly when the answer does, whatever caused it (an edit, a venue rename seen inside an event, the clock).
import { createHash } from 'node:crypto';
import { JsonText } from './json-text.ts';

// Built bodies held by the item cache are the same JsonText object until the next change: hash each once.
const bodyHashes = new WeakMap<JsonText, string>();

const sha1 = (text: string): string => createHash('sha1').update(text).digest('base64url');

/**
 * The strong ETag of an answer: its payload (a cached JsonText is hashed once) and the headers that are part of the
 * answer (totals, `Allow`, the content type), never per-request transport headers such as CORS.
 * @example entityTag('{"id":1}', { 'Content-Type': 'application/json' }) // '"k5…"'
 */
export function entityTag(payload: string | JsonText, own: Readonly<Record<string, string | number>>): string {
  let body: string;
  if (payload instanceof JsonText) {
    body = bodyHashes.get(payload) ?? sha1(payload.text);
    bodyHashes.set(payload, body);
  } else body = sha1(payload);
  const keys = Object.keys(own).sort();
  const meta = keys.map((k) => `${k.toLowerCase()}:${String(own[k])}`).join('\n');
  return `"${sha1(`${body}\n${meta}`)}"`;
}

/** If-None-Match: `*` or any listed tag equal under the weak comparison RFC 9110 §13.1.2 prescribes for it. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/**
 * If-Modified-Since, honoured only without If-None-Match (§13.1.3) and with a date that parses; HTTP dates have
 * whole seconds, so the resource's time is compared truncated.
 */
export function notModifiedSince(header: string | undefined, lastModifiedMs: number | undefined): boolean {
  if (header === undefined || lastModifiedMs === undefined) return false;
  const since = Date.parse(header);
  if (Number.isNaN(since)) return false;
  return Math.floor(lastModifiedMs / 1000) * 1000 <= since;
}

/** Whether a GET may be answered 304 Not Modified for this entity. */
export function isNotModified(headers: { 'if-none-match'?: string; 'if-modified-since'?: string }, etag: string, lastModifiedMs?: number): boolean {
  if (headers['if-none-match'] !== undefined) return noneMatch(headers['if-none-match'], etag);
  return notModifiedSince(headers['if-modified-since'], lastModifiedMs);
}

/** The headers a 304 keeps (RFC 9110 §15.4.5): everything but the body's own description. */
export function notModifiedHeaders(headers: Readonly<Record<string, string | number>>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(headers)) if (k !== 'Content-Type' && k !== 'Content-Disposition') out[k] = v;
  return out;
}
