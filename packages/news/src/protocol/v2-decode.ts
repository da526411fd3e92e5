import type { TSchema } from '@sinclair/typebox';
import { v2CallOf, V2_KINDS, type V2Kind } from '../search-v2/calls/index.ts';
import type { V2WorkerRequest } from './v2-messages.ts';

/** Thrown for a v2 message that does not follow the protocol; decode.ts turns it into its ProtocolError. */
export class V2DecodeError extends Error {}

type Json = Record<string, unknown>;
/** The JSON-schema keywords the decoder reads (TypeBox emits them; `errorMessage` is ours, for a clearer refusal). */
interface Schema {
  readonly type?: string;
  readonly anyOf?: readonly Schema[];
  readonly enum?: readonly string[];
  readonly const?: unknown;
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly items?: Schema;
  readonly prefixItems?: readonly Schema[];
  readonly errorMessage?: string;
}

// Plain functions, no closures per call: the worker decodes every v2 request with them.
function fail(what: string, expected: string): never {
  throw new V2DecodeError(`${what} must be ${expected}`);
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const admitsNull = (s: Schema): boolean => s.type === 'null' || (s.anyOf?.some(admitsNull) ?? false);

/**
 * Checks one value against the types its schema declares (not the bounds: the gateway checked those at the edge,
 * and the domain checks what protects the worker) and returns it with absent optional fields as null where the
 * schema admits null. Errors name the field as `what`.
 */
function decodeValue(s: Schema, v: unknown, what: string): unknown {
  if (s.errorMessage !== undefined) {
    // One message for anything wrong inside (e.g. `draws`), as the field's declaration words it.
    try {
      return decodeValue({ ...s, errorMessage: undefined }, v, what);
    } catch (e) {
      throw e instanceof V2DecodeError ? new V2DecodeError(s.errorMessage) : e;
    }
  }
  if (s.anyOf !== undefined) {
    if (v === null && admitsNull(s)) return null;
    const [first, ...others] = s.anyOf.filter((x) => x.type !== 'null');
    if (first === undefined) return fail(what, 'null');
    // A nullable field reports its non-null type's error; a real union (none yet) the first member's.
    for (const option of others) {
      try {
        return decodeValue(option, v, what);
      } catch (e) {
        if (!(e instanceof V2DecodeError)) throw e;
      }
    }
    return decodeValue(first, v, what);
  }
  switch (s.type) {
    case 'string':
      if (typeof v !== 'string') return fail(what, 'a string');
      if (s.enum !== undefined && !s.enum.includes(v)) return fail(what, s.enum.join(' or '));
      return v;
    case 'integer':
      return typeof v === 'number' && Number.isSafeInteger(v) ? v : fail(what, 'an integer');
    case 'number':
      return typeof v === 'number' ? v : fail(what, 'a number');
    case 'boolean':
      return typeof v === 'boolean' ? v : fail(what, 'a boolean');
    case 'null':
      return v === null ? v : fail(what, 'null');
    case 'array': {
      if (!Array.isArray(v)) return fail(what, s.items?.type === 'string' ? 'a list of strings' : 'a list');
      if (s.prefixItems !== undefined) {
        if (v.length !== s.prefixItems.length) return fail(what, `a list of ${s.prefixItems.length}`);
        return s.prefixItems.map((item, i) => decodeValue(item, v[i], `${what}[${i}]`));
      }
      const items = s.items;
      if (items === undefined) return v;
      if (items.type === 'string') return v.every((x) => typeof x === 'string') ? v : fail(what, 'a list of strings');
      return v.map((x: unknown, i) => decodeValue(items, x, `${what}[${i}]`));
    }
    case 'object':
      return decodeObject(s, v, what);
    default:
      if (s.const !== undefined) return v === s.const ? v : fail(what, JSON.stringify(s.const));
      // A field declared without a type (search's `query_tree`): the domain validates it with its own named errors.
      if (s.type === undefined) return v;
      throw new Error(`v2-decode: schema type ${String(s.type)} is not supported (${what})`);
  }
}

/** An object schema's fields, worked out once per schema (the worker decodes every v2 request with it). */
interface ObjectPlan {
  readonly fields: readonly {
    readonly key: string;
    readonly schema: Schema;
    readonly required: boolean;
    readonly nullable: boolean;
  }[];
}
const plans = new WeakMap<Schema, ObjectPlan>();
function planOf(s: Schema): ObjectPlan {
  let plan = plans.get(s);
  if (plan === undefined) {
    const required = new Set(s.required ?? []);
    plan = {
      fields: Object.entries(s.properties ?? {}).map(([key, schema]) => ({
        key,
        schema,
        required: required.has(key),
        nullable: admitsNull(schema),
      })),
    };
    plans.set(s, plan);
  }
  return plan;
}

function decodeObject(s: Schema, v: unknown, what: string): Json {
  if (!isObject(v)) throw new V2DecodeError(s.errorMessage ?? `${what} must be an object`);
  const out: Json = {};
  for (const { key, schema, required, nullable } of planOf(s).fields) {
    const x = v[key];
    // Optional fields may be absent or null (the gateway fills defaults, direct callers need not).
    if (!required && (x === undefined || x === null)) {
      if (nullable) out[key] = null;
      continue;
    }
    out[key] = decodeValue(schema, x, key);
  }
  return out;
}

/**
 * Checks the body of a v2 request at the process boundary against its call's request schema (search-v2/calls).
 * The gateway validated the public request already; this only guarantees the types the domain relies on.
 */
export function decodeV2Request(kind: V2Kind, raw: unknown): V2WorkerRequest {
  const schema: TSchema = v2CallOf(kind).request;
  return { kind, body: decodeObject(schema as Schema, raw, 'body') } as V2WorkerRequest;
}

export function isV2Kind(kind: unknown): kind is V2Kind {
  return typeof kind === 'string' && (V2_KINDS as readonly string[]).includes(kind);
}
