import { Type, type IntegerOptions, type TInteger } from '@sinclair/typebox';

declare const ROW_ID: unique symbol;

/**
 * The id of a post, term or user as a request names it, checked once at the edge. Both stores hold ids in
 * PostgreSQL's `integer` range (migration 001's `serial`; SQLite's 64-bit rowids are capped the same way by
 * migration 011), so every id that reaches SQL is one both stores can compare with.
 */
export type RowId = number & { readonly [ROW_ID]: true };

export const MIN_ROW_ID = -2_147_483_648;
/** Reserved: no row ever gets this id (migration 011 stops the sequences one below), so it stands for "past the range". */
export const MAX_ROW_ID = 2_147_483_647;

const INTEGER_TEXT = /^-?\d+$/;

/**
 * Reads an id as sent: an integer, or a string of digits of any length. An id past the range is clamped to it, as
 * PHP's `(int)` clamps `9999999999999999999` to PHP_INT_MAX: no row has the clamped value, so the request is
 * answered exactly as for any other missing id in that position (404 on an item route, the plugin's 400 on a
 * reference) on both stores, instead of PostgreSQL's `22003 out of range`. Undefined when the value is no integer.
 * @example toRowId('2147483648') === MAX_ROW_ID; toRowId('12') === 12; toRowId('1.5') === undefined
 */
export function toRowId(value: unknown): RowId | undefined {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && INTEGER_TEXT.test(value.trim())) n = Number(value.trim());
  else return undefined;
  if (!Number.isInteger(n)) return undefined;
  return Math.min(MAX_ROW_ID, Math.max(MIN_ROW_ID, n)) as RowId;
}

/** True when `text` is a plain non-negative integer: term and venue references that name an id rather than a slug. */
export const isIdText = (text: string): boolean => /^\d+$/.test(text);

const ROW_ID_KEY = 'rowId';

/** An integer argument that names a row: coerced by `toRowId` (http/args.ts), so any length of digits is accepted. */
export const RowIdType = (options: IntegerOptions = {}): TInteger => Type.Integer({ ...options, [ROW_ID_KEY]: true });

export const isRowIdSchema = (schema: object): boolean => (schema as Record<string, unknown>)[ROW_ID_KEY] === true;
