/**
 * Validation error items exactly as FastAPI renders pydantic v2 errors: `type` strings and `msg` texts are
 * pydantic's, so a FastAPI client parses our 422 bodies unchanged.
 */

export type Loc = readonly (string | number)[];

export interface ValidationIssue {
  readonly type: string;
  readonly loc: Loc;
  readonly msg: string;
  readonly input?: unknown;
  readonly ctx?: Readonly<Record<string, unknown>>;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

export const issue = {
  missing: (loc: Loc, input: unknown): ValidationIssue => ({ type: 'missing', loc, msg: 'Field required', input }),
  stringType: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'string_type',
    loc,
    msg: 'Input should be a valid string',
    input,
  }),
  stringUnicode: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'string_unicode',
    loc,
    msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
    input,
  }),
  stringTooShort: (loc: Loc, input: unknown, min: number): ValidationIssue => ({
    type: 'string_too_short',
    loc,
    msg: `String should have at least ${plural(min, 'character')}`,
    input,
    ctx: { min_length: min },
  }),
  stringTooLong: (loc: Loc, input: unknown, max: number): ValidationIssue => ({
    type: 'string_too_long',
    loc,
    msg: `String should have at most ${plural(max, 'character')}`,
    input,
    ctx: { max_length: max },
  }),
  stringPattern: (loc: Loc, input: unknown, pattern: string): ValidationIssue => ({
    type: 'string_pattern_mismatch',
    loc,
    msg: `String should match pattern '${pattern}'`,
    input,
    ctx: { pattern },
  }),
  intType: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'int_type',
    loc,
    msg: 'Input should be a valid integer',
    input,
  }),
  finiteNumber: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'finite_number',
    loc,
    msg: 'Input should be a finite number',
    input,
  }),
  intParsing: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'int_parsing',
    loc,
    msg: 'Input should be a valid integer, unable to parse string as an integer',
    input,
  }),
  intFromFloat: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'int_from_float',
    loc,
    msg: 'Input should be a valid integer, got a number with a fractional part',
    input,
  }),
  greaterThanEqual: (loc: Loc, input: unknown, ge: number): ValidationIssue => ({
    type: 'greater_than_equal',
    loc,
    msg: `Input should be greater than or equal to ${ge}`,
    input,
    ctx: { ge },
  }),
  lessThanEqual: (loc: Loc, input: unknown, le: number): ValidationIssue => ({
    type: 'less_than_equal',
    loc,
    msg: `Input should be less than or equal to ${le}`,
    input,
    ctx: { le },
  }),
  lessThan: (loc: Loc, input: unknown, lt: number): ValidationIssue => ({
    type: 'less_than',
    loc,
    msg: `Input should be less than ${lt}`,
    input,
    ctx: { lt },
  }),
  literal: (loc: Loc, input: unknown, allowed: readonly string[]): ValidationIssue => {
    const quoted = allowed.map((a) => `'${a}'`);
    const expected = quoted.length <= 1 ? (quoted[0] ?? "''") : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
    return { type: 'literal_error', loc, msg: `Input should be ${expected}`, input, ctx: { expected } };
  },
  valueError: (loc: Loc, input: unknown, error: string): ValidationIssue => ({
    type: 'value_error',
    loc,
    msg: `Value error, ${error}`,
    input,
    ctx: { error },
  }),
  boolType: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'bool_type',
    loc,
    msg: 'Input should be a valid boolean',
    input,
  }),
  boolParsing: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'bool_parsing',
    loc,
    msg: 'Input should be a valid boolean, unable to interpret input',
    input,
  }),
  listType: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'list_type',
    loc,
    msg: 'Input should be a valid list',
    input,
  }),
  listTooLong: (loc: Loc, input: unknown, max: number, actual: number): ValidationIssue => ({
    type: 'too_long',
    loc,
    msg: `List should have at most ${plural(max, 'item')} after validation, not ${actual}`,
    input,
    ctx: { field_type: 'List', max_length: max, actual_length: actual },
  }),
  modelType: (loc: Loc, input: unknown, className: string): ValidationIssue => ({
    type: 'model_type',
    loc,
    msg: `Input should be a valid dictionary or instance of ${className}`,
    input,
    ctx: { class_name: className },
  }),
  modelAttributesType: (input: unknown): ValidationIssue => ({
    type: 'model_attributes_type',
    loc: ['body'],
    msg: 'Input should be a valid dictionary or object to extract fields from',
    input,
  }),
  jsonInvalid: (pos: number, error: string): ValidationIssue => ({
    type: 'json_invalid',
    loc: ['body', pos],
    msg: 'JSON decode error',
    input: {},
    ctx: { error },
  }),
};
