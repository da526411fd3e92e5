export { issue } from './issues.ts';
export type { ValidationIssue, Loc } from './issues.ts';
export { readRequestBody } from './json-body.ts';
export type { RequestBody } from './json-body.ts';
export { validateBody } from './validate-body.ts';
export type { JsonSchema } from './json-schema.ts';
