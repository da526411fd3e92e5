export { parseQuery } from './parse-query.js';
export { printQuery } from './print-query.js';
export { parseQueryJson } from './query-json.js';
export { assertFieldsIndexed, fieldsOf } from './indexed-fields.js';
export type { ParsedQuery, QueryField, QueryNode } from './types.js';
export { MAX_NEAR_DISTANCE } from './types.js';
