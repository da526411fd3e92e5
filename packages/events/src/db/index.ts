export { openStore, isPostgres, isUniqueViolation, lockKey } from './connection.ts';
export type { Store, DbKind } from './connection.ts';
export type { ChangeSignal } from './change-signal.ts';
export { reusableByIds } from './reusable.ts';
export { isDatabaseUnavailable } from './unavailable.ts';
export type * from './schema.ts';
