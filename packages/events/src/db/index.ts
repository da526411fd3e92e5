export { openStore, isPostgres, isUniqueViolation, lockKey } from './connection.ts';
export type { Store, DbKind } from './connection.ts';
export type { ChangeSignal, ChangeTopic } from './change-signal.ts';
export { NOTIFIED_ATTEMPTS } from './migrations/008-notify-table.ts';
export { reusableByIds } from './reusable.ts';
export { isDatabaseUnavailable } from './unavailable.ts';
export { conflictBackoffMs, isTransactionConflict, MAX_CONFLICT_ATTEMPTS } from './conflict.ts';
export { retryWhileBusy } from './sqlite-writes.ts';
export type * from './schema.ts';
