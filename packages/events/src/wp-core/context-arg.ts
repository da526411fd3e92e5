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
  const validator: Validator = (value, name) => {
    if ((contexts as readonly unknown[]).includes(value)) return true;
    const message = `${name} is not one of ${listWords(contexts)}.`;
    return { message, detail: { code: 'rest_not_in_enum', message, data: null } };
  };
  return { schema, validator };
}
