import { Type } from '@sinclair/typebox';
import type { Validator } from '../http/args.ts';

export type Context = 'view' | 'embed' | 'edit';

/** `wp_sprintf_l`'s English list: `a`, `a and b`, `a, b, and c`. */
const listWords = (words: readonly string[]) =>
  words.length <= 2 ? words.join(' and ') : `${words.slice(0, -1).join(', ')}, and ${words[words.length - 1]}`;

/**
 * Core's `get_context_param`: a string argument limited to `contexts`, default `view`. A value outside them is core's
 * 400 `rest_invalid_param` with a `rest_not_in_enum` detail.
 * @example const { schema, validator } = contextArg(['view', 'embed', 'edit'])
 */
export function contextArg(contexts: readonly Context[]) {
  const schema = Type.Optional(
    Type.String({
      description: 'Scope under which the request is made; determines fields present in response.',
      enum: [...contexts],
      default: 'view',
    }),
  );
  return { schema, validator: enumValidator(contexts) };
}

/** Core's `enum` check: a value outside `values` is 400 `rest_invalid_param` with a `rest_not_in_enum` detail. */
export function enumValidator(values: readonly string[]): Validator {
  return (value, name) => {
    if ((values as readonly unknown[]).includes(value)) return true;
    const message = `${name} is not one of ${listWords(values)}.`;
    return { message, detail: { code: 'rest_not_in_enum', message, data: null } };
  };
}

/**
 * Core's `minimum`/`maximum` check of an integer argument, with its `rest_out_of_bounds` detail.
 * @example integerRange(1, 100) // per_page: "per_page must be between 1 (inclusive) and 100 (inclusive)"
 */
export function integerRange(min: number, max?: number): Validator {
  return (value, name) => {
    const n = value as number;
    if (n >= min && (max === undefined || n <= max)) return true;
    const message =
      max === undefined
        ? `${name} must be greater than or equal to ${min}`
        : `${name} must be between ${min} (inclusive) and ${max} (inclusive)`;
    return { message, detail: { code: 'rest_out_of_bounds', message, data: null } };
  };
}
