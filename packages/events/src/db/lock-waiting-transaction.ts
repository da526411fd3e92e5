import type { Kysely, Transaction } from 'kysely';
import { isPostgres } from './connection.ts';
import type { Database } from './schema.ts';
import { retryWhileBusy } from './sqlite-writes.ts';

/**
 * One transaction. On SQLite it first waits, without blocking the event loop, while another process holds the write
 * lock (sqlite-writes.ts); PostgreSQL's row locks need no such wait.
 */
export function lockWaitingTransaction<T>(
  db: Kysely<Database>,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  const run = () => db.transaction().execute(fn);
  return isPostgres(db) ? run() : retryWhileBusy(run);
}
