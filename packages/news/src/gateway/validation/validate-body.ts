import type { Static, TObject } from '@sinclair/typebox';
import { ValidationFailed } from '../errors/index.ts';
import { issue, type Loc, type ValidationIssue } from './issues.ts';
import type { RequestBody } from './json-body.ts';
import type { JsonSchema } from './json-schema.ts';

/**
 * Validates a request body against its TypeBox schema with pydantic v2's lax-mode rules, the way FastAPI
 * would for a body model. The schema stays the single source: OpenAPI and /api-docs are generated from it.
 *
 * Supported schema subset (all our request models use): object of string / integer / boolean / null /
 * anyOf-with-null / array (maxItems) / nested object (titled, like a pydantic sub-model) properties with minLength,
 * maxLength, pattern, enum (a Literal), minimum, maximum and default, and untyped (any JSON value). Unknown properties are ignored, as FastAPI ignores extra
 * fields by default. A nested object reports every field's first error, as the body does.
 */

type Result = { ok: true; value: unknown } | { ok: false; issues: readonly ValidationIssue[] };

const fail = (i: ValidationIssue): Result => ({ ok: false, issues: [i] });

// With the u flag a valid surrogate pair is one code point, so \p{Cs} matches only lone halves.
const LONE_SURROGATE = /\p{Cs}/u;

const patternCache = new Map<string, RegExp>();
const regex = (p: string): RegExp => {
  let r = patternCache.get(p);
  if (r === undefined) {
    r = new RegExp(p, 'u');
    patternCache.set(p, r);
  }
  return r;
};

/** Length as Python counts it: code points, so an astral character is 1 (JavaScript's `length` says 2). */
function codePointLength(s: string, atLeast: number): number {
  // Code points ≤ UTF-16 units, so only a string longer than the bound in units needs counting.
  if (s.length <= atLeast) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

function validateString(s: JsonSchema, v: unknown, loc: Loc): Result {
  if (typeof v !== 'string') return fail(issue.stringType(loc, v));
  // JSON may carry a lone surrogate escape ("\ud800"); it cannot be encoded as UTF-8, as in pydantic.
  if (LONE_SURROGATE.test(v)) return fail(issue.stringUnicode(loc, v));
  if (s.minLength !== undefined && codePointLength(v, s.minLength) < s.minLength) {
    return fail(issue.stringTooShort(loc, v, s.minLength));
  }
  if (s.maxLength !== undefined && codePointLength(v, s.maxLength) > s.maxLength) {
    return fail(issue.stringTooLong(loc, v, s.maxLength));
  }
  if (s.pattern !== undefined && !regex(s.pattern).test(v)) return fail(issue.stringPattern(loc, v, s.pattern));
  if (s.enum !== undefined && !s.enum.includes(v)) return fail(issue.literal(loc, v, s.enum));
  // TypeBox's Literal('x') emits `const`, a one-value enum.
  if (s.const !== undefined && v !== s.const) return fail(issue.literal(loc, v, [s.const]));
  return { ok: true, value: v };
}

/** Lax int: ints, integral floats, booleans, and strings holding an integer are accepted, as in pydantic. */
function coerceInt(v: unknown, loc: Loc): Result {
  if (typeof v === 'boolean') return { ok: true, value: v ? 1 : 0 };
  if (typeof v === 'number') {
    // JSON.parse turns 1e400 into Infinity where Python's json makes inf: pydantic calls that finite_number.
    if (!Number.isFinite(v)) return fail(issue.finiteNumber(loc, v));
    if (!Number.isInteger(v)) return fail(issue.intFromFloat(loc, v));
    return { ok: true, value: v };
  }
  if (typeof v === 'string') {
    const m = /^\s*([+-]?\d+)(?:\.0*)?\s*$/.exec(v);
    if (m?.[1] === undefined) return fail(issue.intParsing(loc, v));
    return { ok: true, value: Number(m[1]) };
  }
  return fail(issue.intType(loc, v));
}

function validateInteger(s: JsonSchema, v: unknown, loc: Loc): Result {
  const r = coerceInt(v, loc);
  if (!r.ok) return r;
  const n = r.value as number;
  if (s.minimum !== undefined && n < s.minimum) return fail(issue.greaterThanEqual(loc, v, s.minimum));
  if (s.maximum !== undefined && n > s.maximum) return fail(issue.lessThanEqual(loc, v, s.maximum));
  return r;
}

const TRUE_WORDS = new Set(['1', 'on', 't', 'true', 'y', 'yes']);
const FALSE_WORDS = new Set(['0', 'off', 'f', 'false', 'n', 'no']);

/** Lax bool as in pydantic: booleans, 0/1 (int or float), and the words of TRUE_WORDS / FALSE_WORDS in any case. */
function validateBoolean(v: unknown, loc: Loc): Result {
  if (typeof v === 'boolean') return { ok: true, value: v };
  if (typeof v === 'number') return v === 0 || v === 1 ? { ok: true, value: v === 1 } : fail(issue.boolParsing(loc, v));
  if (typeof v === 'string') {
    const w = v.toLowerCase();
    if (TRUE_WORDS.has(w)) return { ok: true, value: true };
    if (FALSE_WORDS.has(w)) return { ok: true, value: false };
    return fail(issue.boolParsing(loc, v));
  }
  return fail(issue.boolType(loc, v));
}

function validateArray(s: JsonSchema, v: unknown, loc: Loc): Result {
  if (!Array.isArray(v)) return fail(issue.listType(loc, v));
  if (s.maxItems !== undefined && v.length > s.maxItems) return fail(issue.listTooLong(loc, v, s.maxItems, v.length));
  const items = s.items;
  if (items === undefined) return { ok: true, value: v };
  const out: unknown[] = [];
  const issues: ValidationIssue[] = [];
  v.forEach((item: unknown, i) => {
    const r = validateValue(items, item, [...loc, i]);
    if (r.ok) out.push(r.value);
    else issues.push(...r.issues);
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: out };
}

/** Every property's first error, in schema order; absent optional properties take their default (or null). */
function validateFields(s: JsonSchema, record: Readonly<Record<string, unknown>>, loc: Loc): Result {
  const required = new Set<string>(s.required ?? []);
  const out: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  for (const [key, p] of Object.entries(s.properties ?? {})) {
    const at = [...loc, key];
    if (!Object.hasOwn(record, key)) {
      if (required.has(key)) issues.push(issue.missing(at, record));
      else out[key] = p.default ?? null;
      continue;
    }
    const r = validateValue(p, record[key], at);
    if (r.ok) out[key] = r.value;
    else issues.push(...r.issues);
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, value: out };
}

function validateObject(s: JsonSchema, v: unknown, loc: Loc): Result {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return fail(issue.modelType(loc, v, s.title ?? 'Model'));
  return validateFields(s, v as Record<string, unknown>, loc);
}

function validateValue(s: JsonSchema, v: unknown, loc: Loc): Result {
  if (s.anyOf !== undefined) {
    // `X | null` is pydantic's nullable X, reporting X's error at the field's loc. A union of several members (keyness's
    // `b`: a subcorpus or "rest") takes the first member the value passes, else reports the first member's errors.
    if (v === null && s.anyOf.some((a) => a.type === 'null')) return { ok: true, value: null };
    const members = s.anyOf.filter((a) => a.type !== 'null');
    if (members.length === 0) return fail(issue.intType(loc, v));
    let first: Result | undefined;
    for (const m of members) {
      const r = validateValue(m, v, loc);
      if (r.ok) return r;
      first ??= r;
    }
    return first!;
  }
  switch (s.type) {
    case 'string':
      return validateString(s, v, loc);
    case 'integer':
      return validateInteger(s, v, loc);
    case 'boolean':
      return validateBoolean(v, loc);
    case 'array':
      return validateArray(s, v, loc);
    case 'object':
      return validateObject(s, v, loc);
    case 'null':
      return v === null ? { ok: true, value: null } : fail(issue.intType(loc, v));
    // A schema without a type (TypeBox `Unknown`, pydantic `Any`): any JSON value, checked by the domain behind it
    // (the JSON form of a search query, whose nodes the worker validates with named errors).
    case undefined:
      return { ok: true, value: v };
    default:
      throw new Error(`validate-body: unsupported schema type ${String(s.type)}`);
  }
}

/**
 * Validates and returns the typed body, or throws ValidationFailed with every field's first error in field order.
 * @example const req = validateBody(CountRequest, readRequestBody(raw, contentType));
 */
export function validateBody<T extends TObject>(schema: T, body: RequestBody): Static<T> {
  if (body.kind === 'empty' || (body.kind === 'json' && body.value === null)) {
    throw new ValidationFailed([issue.missing(['body'], null)]);
  }
  if (body.kind === 'raw') throw new ValidationFailed([issue.modelAttributesType(body.text)]);
  const input = body.value;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ValidationFailed([issue.modelAttributesType(input)]);
  }
  const r = validateFields(schema as unknown as JsonSchema, input as Record<string, unknown>, ['body']);
  if (!r.ok) throw new ValidationFailed(r.issues);
  return r.value as Static<T>;
}
