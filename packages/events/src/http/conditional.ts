// Conditional GETs (RFC 9110 §13): a strong ETag hashed from the exact bytes and the answer's own headers, so it
// changes exactly when the answer does, whatever caused it (an edit, a venue rename seen inside an event, the clock).
import { hash } from 'node:crypto';
import { JsonText } from './json-text.ts';

// One-shot hashing: about a third of the cost of createHash().update().digest() on the short texts hashed per request.
const sha1 = (text: string): string => hash('sha1', text, 'base64url');

type OwnHeaders = Readonly<Record<string, string | number>>;

// Built bodies held by the item cache are the same JsonText until the next change and are re-sent with the same own
// headers and modification time: the body is hashed once, and its validators are reused while those match (the
// by-id hot path, where building the header line and the date cost more than the rest of the answer's headers).
interface Known {
  readonly bodyHash: string;
  readonly own: OwnHeaders;
  readonly ownCount: number;
  readonly contentType: string;
  readonly lastModifiedMs?: number;
  readonly etag: string;
  readonly lastModified?: string;
}
const known = new WeakMap<JsonText, Known>();

/** The answer's own headers as one line per header, in name order, so the tag does not depend on insertion order. */
function headerLines(own: OwnHeaders, contentType: string): string {
  const all: Record<string, string | number> = { ...own, 'Content-Type': contentType };
  const keys = Object.keys(all).sort();
  let meta = '';
  for (let i = 0; i < keys.length; i++)
    meta += `${i === 0 ? '' : '\n'}${keys[i]!.toLowerCase()}:${String(all[keys[i]!])}`;
  return meta;
}

/** Whether `own` has exactly the `count` headers of `was` with the same values, in any order. */
function sameHeaders(own: OwnHeaders, was: OwnHeaders, count: number): boolean {
  let n = 0;
  for (const k in own) {
    if (own[k] !== was[k]) return false;
    n++;
  }
  return n === count;
}

const tagOf = (bodyHash: string, own: OwnHeaders, contentType: string) =>
  `"${sha1(`${bodyHash}\n${headerLines(own, contentType)}`)}"`;
const httpDate = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toUTCString());

/** The validators a 200 answer sends: its strong `ETag` and, for an item, `Last-Modified` as an HTTP date. */
export interface Validators {
  readonly etag: string;
  readonly lastModified?: string;
}

/**
 * The validators of an answer. The ETag hashes its payload and the headers that are part of the answer (totals,
 * `Allow`, the content type), never per-request transport headers such as CORS. `own` is kept with a cached
 * JsonText's validators: pass an object that is not changed afterwards.
 * @example answerValidators('{"id":1}', { Allow: 'GET' }, 'application/json', Date.UTC(2026, 0, 1))
 * // { etag: '"k5…"', lastModified: 'Thu, 01 Jan 2026 00:00:00 GMT' }
 */
export function answerValidators(
  payload: string | JsonText,
  own: OwnHeaders,
  contentType: string,
  lastModifiedMs?: number,
): Validators {
  if (!(payload instanceof JsonText))
    return { etag: tagOf(sha1(payload), own, contentType), lastModified: httpDate(lastModifiedMs) };
  const k = known.get(payload);
  if (
    k !== undefined &&
    k.lastModifiedMs === lastModifiedMs &&
    k.contentType === contentType &&
    sameHeaders(own, k.own, k.ownCount)
  )
    return k;
  const bodyHash = k?.bodyHash ?? sha1(payload.text);
  const next: Known = {
    bodyHash,
    own,
    ownCount: Object.keys(own).length,
    contentType,
    lastModifiedMs,
    etag: tagOf(bodyHash, own, contentType),
    lastModified: httpDate(lastModifiedMs),
  };
  known.set(payload, next);
  return next;
}

/** If-None-Match: `*` or any listed tag equal under the weak comparison RFC 9110 §13.1.2 prescribes for it. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header === etag) return true; // what a client re-sends, as it was given
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

/** Whether the request carries a validator at all (most requests do not, and then nothing is looked up). */
export function isConditional(headers: { 'if-none-match'?: string; 'if-modified-since'?: string }): boolean {
  return headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined;
}

/** Whether a GET may be answered 304 Not Modified for this entity. */
export function isNotModified(
  headers: { 'if-none-match'?: string; 'if-modified-since'?: string },
  etag: string,
  lastModifiedMs?: number,
): boolean {
  if (headers['if-none-match'] !== undefined) return noneMatch(headers['if-none-match'], etag);
  return notModifiedSince(headers['if-modified-since'], lastModifiedMs);
}

/** The headers a 304 keeps (RFC 9110 §15.4.5): everything but the body's own description. */
export function notModifiedHeaders(
  headers: Readonly<Record<string, string | number>>,
): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(headers)) if (k !== 'Content-Type' && k !== 'Content-Disposition') out[k] = v;
  return out;
}
