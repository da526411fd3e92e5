import { type TSchema, type Type, Kind, OptionalKind } from '@sinclair/typebox';
import { ApiError, invalidParams, type ParamProblem } from './errors.ts';
import type { Caller } from './route.ts';
import { isRowIdSchema, toRowId } from './row-id.ts';

// Route arguments are declared as TypeBox schemas: the same declaration drives WordPress-style type coercion here,
// the namespace index and the /doc document. Semantic checks (existence, formats) are per-argument validators.

/** A per-argument check; like a WordPress validate_callback it may look at the current user (`image` URLs need `upload_files`). */
export type Validator = (
  value: unknown,
  name: string,
  caller: Caller | null,
) => Promise<true | ParamProblem> | true | ParamProblem;

/** The argument declarations of one endpoint. */
export interface ArgSet {
  readonly schema: ReturnType<typeof Type.Object>;
  readonly validators?: Readonly<Record<string, Validator>>;
}

/** The moment and site zone an argument's declaration is printed for (a default date window depends on both). */
export interface DeclarationContext {
  readonly now: number;
  readonly timezone: string;
}

/**
 * How the plugin declares an argument where that differs from how we check it: what the namespace index, OPTIONS
 * and `/doc` print, never what validation applies. `type: null` / `items: null` print none (the plugin checks those
 * values in its own callbacks); a `default` key prints that value (a function: computed per request, `undefined`:
 * none), so a declared `null` default is never applied to a request.
 */
export interface Declared {
  readonly type?: string | null;
  readonly format?: string;
  readonly items?: { readonly type: string } | null;
  readonly default?: unknown;
  /** `/doc` prints the argument as a comma-separated list (`style: form`), as the plugin's `collectionFormat: csv`. */
  readonly csv?: true;
  /** The type only `/doc` prints (the plugin's `swagger_type`, for an argument it declares untyped elsewhere). */
  readonly swaggerType?: string;
  /** An extension the plugin does not have: accepted, but not printed. */
  readonly hidden?: true;
}

const DECLARED = 'wpDeclared';

/** Schema options carrying the plugin's declaration: `Type.String({ description, ...declared({ type: null }) })`. */
export const declared = (d: Declared): Record<string, Declared> => ({ [DECLARED]: d });

export const isDeclared = (schema: TSchema): boolean => (schema[DECLARED] as Declared | undefined)?.hidden !== true;

/**
 * The type and items `/doc` prints (the plugin's swaggerize_args): the swagger or declared type, else the checked one, else
 * `array` for a declared list of items and `string` for anything untyped.
 */
export function swaggerType(schema: TSchema): { type: string; items?: { type: string }; csv: boolean } {
  const d = schema[DECLARED] as Declared | undefined;
  const items = d !== undefined && 'items' in d ? d.items : (schema.items as TSchema | undefined);
  const itemType = items && typeof items.type === 'string' ? { type: items.type } : undefined;
  const type =
    d?.swaggerType !== undefined
      ? d.swaggerType
      : typeof d?.type === 'string'
        ? d.type
        : typeof schema.type === 'string'
          ? schema.type
          : itemType
            ? 'array'
            : 'string';
  return { type, ...(itemType ? { items: itemType } : {}), csv: d?.csv === true };
}

/** One argument as core's index prints it (`get_data_for_route`): schema keywords and `required`, no validators. */
export function describeArg(schema: TSchema, at: DeclarationContext): Record<string, unknown> {
  const d = schema[DECLARED] as Declared | undefined;
  const has = (k: keyof Declared) => d !== undefined && k in d;
  const out: Record<string, unknown> = {};
  const type = has('type') ? d!.type : schema.type;
  if (typeof type === 'string') out.type = type;
  if (d?.format !== undefined) out.format = d.format;
  const items = has('items') ? d!.items : (schema.items as TSchema | undefined);
  if (items && typeof items.type === 'string') out.items = { type: items.type };
  const def = has('default') ? d!.default : schema.default;
  if (def !== undefined)
    out.default = typeof def === 'function' ? (def as (c: DeclarationContext) => unknown)(at) : def;
  if (schema.description !== undefined) out.description = schema.description;
  if (Array.isArray(schema.enum)) out.enum = schema.enum;
  out.required = isRequired(schema);
  return out;
}

const notOfType = (name: string, type: string): ParamProblem => ({ message: `${name} is not of type ${type}.` });

/** Core's rest_sanitize_boolean accepts exactly these. */
function toBoolean(v: unknown): boolean | undefined {
  if (v === true || v === 'true' || v === '1' || v === 1) return true;
  if (v === false || v === 'false' || v === '0' || v === 0) return false;
  return undefined;
}

function schemaType(s: TSchema): string | undefined {
  if (typeof s.type === 'string') return s.type;
  if (s[Kind] === 'Union' && Array.isArray(s.anyOf)) return undefined;
  return undefined;
}

/** Coerces one value per core's rules; returns the coerced value or a problem. */
export function coerce(
  schema: TSchema,
  value: unknown,
  name: string,
): { ok: true; value: unknown } | { ok: false; problem: ParamProblem } {
  const type = schemaType(schema);
  switch (type) {
    case 'integer': {
      if (isRowIdSchema(schema)) {
        const id = toRowId(value);
        return id === undefined ? { ok: false, problem: notOfType(name, 'integer') } : { ok: true, value: id };
      }
      if (typeof value === 'number' && Number.isInteger(value)) return { ok: true, value };
      if (typeof value === 'string' && /^-?\d+$/.test(value.trim()) && value.trim().length < 16)
        return { ok: true, value: Number(value) };
      return { ok: false, problem: notOfType(name, 'integer') };
    }
    case 'number': {
      if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value };
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
        return { ok: true, value: Number(value) };
      return { ok: false, problem: notOfType(name, 'number') };
    }
    case 'boolean': {
      const b = toBoolean(value);
      return b === undefined ? { ok: false, problem: notOfType(name, 'boolean') } : { ok: true, value: b };
    }
    case 'string':
      return typeof value === 'string' ? { ok: true, value } : { ok: false, problem: notOfType(name, 'string') };
    case 'array': {
      let list: unknown[];
      if (Array.isArray(value)) list = value;
      else if (typeof value === 'string') list = value.split(/[\s,]+/).filter((x) => x !== '');
      else if (typeof value === 'number') list = [value];
      else if (value !== null && typeof value === 'object') list = Object.values(value);
      else return { ok: false, problem: notOfType(name, 'array') };
      const items = schema.items as TSchema | undefined;
      if (!items) return { ok: true, value: list };
      const out: unknown[] = [];
      for (let i = 0; i < list.length; i++) {
        const r = coerce(items, list[i], `${name}[${i}]`);
        if (!r.ok) return r;
        out.push(r.value);
      }
      return { ok: true, value: out };
    }
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? { ok: true, value }
        : { ok: false, problem: notOfType(name, 'object') };
    default:
      return { ok: true, value };
  }
}

/**
 * True when a string anywhere in `value` holds a NUL character. PostgreSQL cannot store one in text and SQLite
 * would cut C strings at it, so it is refused the same way on both stores. Iterative: JSON bodies nest without limit.
 */
function holdsNul(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string' && v.includes('\0')) return true;
    // A loop, not push(...values): a 1 MiB JSON array has more elements than a call takes arguments.
    if (v !== null && typeof v === 'object') for (const child of Object.values(v)) stack.push(child);
  }
  return false;
}

export function isRequired(schema: TSchema): boolean {
  return schema[OptionalKind] !== 'Optional' && schema.required !== false;
}

/**
 * Runs core's order on the merged request parameters: required → validators → coercion.
 * Returns the coerced parameters, typed by the caller's schema; unknown keys are dropped, as WordPress ignores them.
 */
export async function checkArgs<T>(
  args: ArgSet,
  raw: Record<string, unknown>,
  caller: Caller | null = null,
): Promise<T> {
  const props = args.schema.properties as Record<string, TSchema>;
  const missing = Object.keys(props).filter((k) => isRequired(props[k]!) && raw[k] === undefined);
  if (missing.length > 0) {
    throw new ApiError('rest_missing_callback_param', `Missing parameter(s): ${missing.join(', ')}`, {
      params: missing,
    });
  }
  const problems: Record<string, ParamProblem> = {};
  const out: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(props)) {
    let value = raw[name];
    if (value === undefined) {
      if (schema.default === undefined) continue;
      value = schema.default;
    }
    if (holdsNul(value)) {
      problems[name] = { message: `${name} contains a NUL character.` };
      continue;
    }
    const coerced = coerce(schema, value, name);
    if (!coerced.ok) {
      problems[name] = coerced.problem;
      continue;
    }
    const validate = args.validators?.[name];
    if (validate) {
      const verdict = await validate(coerced.value, name, caller);
      if (verdict !== true) {
        problems[name] = verdict;
        continue;
      }
    }
    out[name] = coerced.value;
  }
  if (Object.keys(problems).length > 0) throw invalidParams(problems);
  return out as T;
}

/** PHP's (bool) of what was sent: TEC casts flags without checking them (`"maybe"` is true). */
export const phpTruthy = (v: unknown): boolean =>
  !(v === false || v === 0 || v === '0' || v === '' || v === 'false' || v === null);

export const invalid = (message = 'Invalid parameter.'): ParamProblem => ({ message });

/** Validator failing with a nested error object, which core copies into `data.details`. */
export const invalidWith = (code: string, message: string): ParamProblem => ({
  message,
  detail: { code, message, data: { status: 400 } },
});
