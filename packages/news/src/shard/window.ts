import type { DocWindow, Span } from './types.ts';

/** Longest run of UTF-8 continuation bytes a boundary move may cross (a character has at most 3). */
const MAX_CONT = 3;

export interface WindowInput {
  readonly doc: number;
  readonly docStart: number;
  readonly docEnd: number;
  /** Text position of the match (may be the article's separator when the query starts with 0xFF). */
  readonly pos: number;
  readonly query: Uint8Array;
  readonly maxCtxLen: number;
  /** Reads text bytes [start, end) of the shard. */
  readonly read: (start: number, end: number) => Buffer;
}

/**
 * The get_doc window (design doc "get_doc window"): [p − ctx, p + needle + ctx) clipped to the article,
 * shrunk inward to UTF-8 character boundaries. A query that starts or ends inside a character (possible:
 * queries are raw bytes) keeps the characters it touches, so the window then widens by up to 3 bytes there.
 */
export function buildDocWindow(input: WindowInput): DocWindow {
  const { docStart, docEnd, query, maxCtxLen } = input;
  if (!(maxCtxLen >= 0) || (maxCtxLen !== Infinity && !Number.isInteger(maxCtxLen))) {
    throw new RangeError(`maxCtxLen must be a whole number of bytes ≥ 0 or Infinity, got ${maxCtxLen}`);
  }
  const p = Math.max(input.pos, docStart);
  const needleEnd = Math.max(p, Math.min(docEnd, input.pos + query.length));
  const lo0 = Math.max(docStart, p - maxCtxLen);
  const hi0 = Math.min(docEnd, needleEnd + maxCtxLen);
  // Read a few bytes beyond both edges so boundary moves never need a second read.
  const rs = Math.max(docStart, lo0 - MAX_CONT);
  const buf = input.read(rs, Math.min(docEnd, hi0 + MAX_CONT + 1));
  const limit = rs + buf.length;
  const isCont = (x: number): boolean => x < limit && x >= rs && ((buf[x - rs] as number) & 0xc0) === 0x80;
  const ceil = (x: number): number => {
    for (let i = 0; i < MAX_CONT && isCont(x); i++) x++;
    return x;
  };
  const floor = (x: number): number => {
    for (let i = 0; i < MAX_CONT && x > docStart && isCont(x); i++) x--;
    return x;
  };
  let lo = ceil(lo0);
  if (lo > p) lo = floor(p);
  let hi = floor(hi0);
  if (hi < needleEnd) hi = ceil(needleEnd);
  const win = buf.subarray(lo - rs, hi - rs);
  // Decoding dominates the cost (~25 µs per 2 kB of CJK text here): decode each piece once and join them.
  const spans = spansOf(win, query);
  return {
    doc: input.doc,
    docLen: docEnd - docStart,
    dispLen: hi - lo,
    needleOffset: p - lo,
    dispStart: lo - docStart,
    text: spans.length === 1 ? (spans[0] as Span)[0] : spans.map(([piece]) => piece).join(''),
    spans,
  };
}

function isContAt(win: Buffer, i: number): boolean {
  return i < win.length && ((win[i] as number) & 0xc0) === 0x80;
}

/**
 * Cuts the window into `[piece, null]` / `[match, "0"]` at every non-overlapping left-to-right occurrence of
 * the query's bytes. A match that starts or ends inside a character is widened to whole characters so every
 * piece is valid UTF-8 and the pieces concatenate to the window text.
 */
export function spansOf(win: Buffer, query: Uint8Array): Span[] {
  if (query.length === 0) return win.length > 0 ? [[win.toString('utf8'), null]] : [];
  const spans: Span[] = [];
  let from = 0;
  for (let i = win.indexOf(query, 0); i !== -1; i = win.indexOf(query, from)) {
    let s = i;
    for (let k = 0; k < MAX_CONT && s > from && isContAt(win, s); k++) s--;
    let e = i + query.length;
    for (let k = 0; k < MAX_CONT && isContAt(win, e); k++) e++;
    if (s > from) spans.push([win.toString('utf8', from, s), null]);
    spans.push([win.toString('utf8', s, e), '0']);
    from = e;
    if (from >= win.length) break;
  }
  if (from < win.length) spans.push([win.toString('utf8', from), null]);
  return spans;
}
