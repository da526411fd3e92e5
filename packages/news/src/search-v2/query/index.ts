export { parseQuery } from './parse-query.js';
export { printQuery } from './print-query.js';
export type { ParsedQuery, QueryField, QueryNode } from './types.js';
export { MAX_NEAR_DISTANCE } from './types.js';
