/**
 * The news query language (issue 27): text and JSON forms parsed into one typed tree, its canonical text, and the
 * per-shard evaluator that counts matching articles.
 */
export type { AndNode, NearNode, NotNode, OrNode, QueryNode, TermNode, TermField } from './ast.ts';
export { termsOf } from './ast.ts';
export { parseQuery, MAX_NEAR_DISTANCE, type ParsedQuery } from './parse.ts';
export { parseQueryJson } from './json-form.ts';
export { canonicalText } from './canonical.ts';
export { assertEvaluable } from './validate.ts';
export { search, queryOf } from './search.ts';
export { nextCursor } from './cursor.ts';
export { QUERY_LIMITS } from './limits.ts';
export type * from './types.ts';
