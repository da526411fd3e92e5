import { ApiError } from './errors.ts';

/**
 * PHP's input bounds, refused with a 400 instead of PHP's silent drop: a client that sent 1,001 fields or a
 * 65-deep key expects them all to count, so a partial parse would write something it did not mean.
 * `maxVars` also bounds every list (`a[]=` appends one entry per pair), and `maxDepth` the bracket groups of a key.
 */
export interface InputLimits {
  readonly maxVars: number;
  readonly maxDepth: number;
}
export const INPUT_LIMITS: InputLimits = Object.freeze({ maxVars: 1000, maxDepth: 64 });

type PhpMap = Record<string, unknown>;

const UNSAFE = new Set(['__proto__', 'prototype', 'constructor']);

function limitError(limit: 'max_input_vars' | 'max_input_nesting_level', max: number, what: string): ApiError {
  return new ApiError('rest_bad_request', `The request has ${what} (${limit} is ${max}).`, { limit, max });
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** `a[b][]` → ['a', 'b', ''], or undefined for a plain key; refuses keys deeper than the limit before splitting. */
function keyPath(key: string, maxDepth: number): string[] | undefined {
  const open = bracketsStart(key, maxDepth);
  return open < 0 ? undefined : [key.slice(0, open), ...key.slice(open + 1, -1).split('][')];
}

/** Where a bracketed key's `[` groups start (-1 for a plain key); throws past `maxDepth` groups. */
function bracketsStart(key: string, maxDepth: number): number {
  const open = key.indexOf('[');
  if (open <= 0 || !key.endsWith(']')) return -1;
  let groups = 0;
  for (let i = key.indexOf('][', open); i >= 0; i = key.indexOf('][', i + 2)) {
    if (++groups >= maxDepth)
      throw limitError('max_input_nesting_level', maxDepth, `a key nested more than ${maxDepth} levels deep`);
  }
  return open;
}

/** An integer key as PHP reads one (`0`, `17`; not `01` or `1.5`), or undefined. */
function intKey(part: string): number | undefined {
  const n = Number(part);
  return n >= 0 && Number.isSafeInteger(n) && String(n) === part ? n : undefined;
}

/**
 * Builds PHP arrays in one pass. A PHP array keyed 0..n-1 in order (what `a[]=` makes, and json_encode shows as a
 * list) is a JS array while it stays one; the first named key or gap turns it into an object, once. Objects track
 * their next integer key for `[]` (never scanned). Plain objects and arrays, not Maps or null-prototype
 * dictionaries: the worst body within the limits makes 64,000 of them, and fast objects keep that to milliseconds.
 */
class PhpArrayBuilder {
  readonly root: PhpMap = Object.create(null) as PhpMap;
  private readonly next = new Map<PhpMap, number>();

  assign(path: readonly string[], value: string): void {
    // PHP ignores nameless variables (`=1`); prototype keys are dropped so plain objects stay safe.
    if (path[0] === '' || path.some((part) => UNSAFE.has(part))) return;
    let parent: PhpMap = this.root;
    let parentKey = '';
    let node: PhpMap | unknown[] = this.root;
    for (let i = 0; ; i++) {
      const part = path[i]!;
      let key: string;
      if (Array.isArray(node)) {
        const n: number | undefined = part === '' ? node.length : intKey(part);
        if (n !== undefined && n <= node.length) key = String(n);
        else {
          node = this.toObject(node, parent, parentKey);
          key = this.keyFor(node, part);
        }
      } else key = this.keyFor(node, part);
      // Arrays take string indexes as well; viewing both as maps keeps one path for lists and objects.
      const map = node as PhpMap;
      if (i === path.length - 1) {
        map[key] = value;
        return;
      }
      const existing: unknown = Object.hasOwn(map, key) ? map[key] : undefined;
      parent = map;
      parentKey = key;
      // A scalar in the way is replaced, as PHP does for `a=1&a[b]=2`.
      node =
        typeof existing === 'object' && existing !== null
          ? (existing as PhpMap | unknown[])
          : (map[key] = this.make(path[i + 1]!));
    }
  }

  /** A new map: a list when its first key appends or is 0. */
  private make(firstKey: string): PhpMap | unknown[] {
    return firstKey === '' || firstKey === '0' ? [] : {};
  }

  /** A named key or a gap in a list: from now on it is a map, replaced in its parent. */
  private toObject(list: unknown[], parent: PhpMap, key: string): PhpMap {
    const map: PhpMap = { ...list };
    this.next.set(map, list.length);
    parent[key] = map;
    return map;
  }

  /** The key `part` names in an object: itself, or for `[]` the next integer key; integer keys move that on. */
  private keyFor(node: PhpMap, part: string): string {
    const next = this.next.get(node) ?? 0;
    if (part === '') {
      this.next.set(node, next + 1);
      return String(next);
    }
    const n = intKey(part);
    if (n !== undefined && n >= next) this.next.set(node, n + 1);
    return part;
  }
}

/** Non-empty `&`-separated pairs, counted before any parsing so an oversized body costs one scan. */
function countVars(text: string, max: number): number {
  let vars = 0;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('&', start);
    if (end < 0) end = text.length;
    if (end > start && ++vars > max) break;
    start = end + 1;
  }
  return vars;
}

/** A parse that can stop after a slice of the text and go on later, so a large body need not hold the event loop. */
class FormParser {
  readonly builder = new PhpArrayBuilder();
  private start = 0;

  constructor(
    private readonly text: string,
    private readonly limits: InputLimits,
  ) {
    checkInputLimits(text, limits);
  }

  /** Parses pairs until about `chars` characters are read; true once the whole text is. */
  step(chars = Infinity): boolean {
    const { text } = this;
    const stop = Math.min(text.length, this.start + chars);
    while (this.start < stop) {
      let end = text.indexOf('&', this.start);
      if (end < 0) end = text.length;
      const pair = text.slice(this.start, end);
      this.start = end + 1;
      if (!pair) continue;
      const eq = pair.indexOf('=');
      const key = decode(eq < 0 ? pair : pair.slice(0, eq));
      const value = decode(eq < 0 ? '' : pair.slice(eq + 1));
      this.builder.assign(keyPath(key, this.limits.maxDepth) ?? [key], value);
    }
    return this.start >= text.length;
  }
}

/**
 * Parses a query string or form body the way PHP does: `a[]=1&a[]=2` is a list, `venue[city]=X` an object,
 * a repeated plain key keeps the last value. Linear in the text; throws a 400 `rest_bad_request` past `limits`.
 * @example parseNestedParams('a[]=1&a[]=2&v[city]=Rome') // { a: ['1', '2'], v: { city: 'Rome' } }
 */
export function parseNestedParams(text: string, limits: InputLimits = INPUT_LIMITS): Record<string, unknown> {
  const parser = new FormParser(text, limits);
  parser.step();
  return parser.builder.root;
}

/**
 * Throws the 400 `parseNestedParams` would for `text`, without building anything: one scan, so a body past the limits
 * is refused before authentication (a password hash) or any other work.
 */
export function checkInputLimits(text: string, limits: InputLimits = INPUT_LIMITS): void {
  if (countVars(text, limits.maxVars) > limits.maxVars) {
    throw limitError('max_input_vars', limits.maxVars, `more than ${limits.maxVars} input variables`);
  }
  for (let start = 0; start < text.length;) {
    let end = text.indexOf('&', start);
    if (end < 0) end = text.length;
    const pair = text.slice(start, end);
    const eq = pair.indexOf('=');
    if (pair) bracketsStart(decode(eq < 0 ? pair : pair.slice(0, eq)), limits.maxDepth);
    start = end + 1;
  }
}

const QUERY_ERROR = Symbol('query error');

/**
 * The query-string parser Fastify calls while routing, where a throw would crash the process: a query past the
 * limits parses to an empty object carrying the error, which `queryError` hands to the request handler.
 */
export function parseQueryParams(text: string): Record<string | symbol, unknown> {
  try {
    return parseNestedParams(text);
  } catch (err) {
    const out = Object.create(null) as Record<string | symbol, unknown>;
    out[QUERY_ERROR] =
      err instanceof ApiError ? err : new ApiError('rest_bad_request', 'The query string could not be read.');
    return out;
  }
}

/** The error `parseQueryParams` met, if any. */
export function queryError(query: Record<string | symbol, unknown>): ApiError | undefined {
  return query[QUERY_ERROR] as ApiError | undefined;
}

/** Bodies are parsed in slices of this many characters (a millisecond or two each, even 64 levels deep). */
const SLICE_CHARS = 8 * 1024;
let lastTurn: Promise<unknown> = Promise.resolve();
const nextLoopTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `parseNestedParams` for request bodies. A body larger than one slice waits for the bodies before it and is then
 * parsed a slice per event-loop turn, so other requests wait for one slice at a time, never for whole bodies.
 */
export function parseBodyParams(text: string, limits: InputLimits = INPUT_LIMITS): Promise<Record<string, unknown>> {
  if (text.length <= SLICE_CHARS) return Promise.resolve().then(() => parseNestedParams(text, limits));
  const turn = lastTurn.then(async () => {
    const parser = new FormParser(text, limits);
    while (!parser.step(SLICE_CHARS)) await nextLoopTurn();
    return parser.builder.root;
  });
  lastTurn = turn.then(nextLoopTurn, nextLoopTurn);
  return turn;
}
