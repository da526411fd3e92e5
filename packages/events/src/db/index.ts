export { openStore, isUniqueViolation, lockKey } from './connection.ts';
export type { Store, DbKind } from './connection.ts';
export type * from './schema.ts';
