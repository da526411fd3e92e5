import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/index.ts';
import {
  conflictBackoffMs,
  isTransactionConflict,
  isUniqueViolation,
  lockWaitingTransaction,
  MAX_CONFLICT_ATTEMPTS,
} from '../db/index.ts';

/**
 * Runs a write in one transaction and retries it when a unique index (slug, term name) was taken by a concurrent
 * writer in between (the retry re-reads the taken slugs and picks the next suffix), or when PostgreSQL rolled it
 * back to break a deadlock or serialization conflict (a bounded number of times, with jitter). On SQLite it also
 * waits (up to 5 s) while another process holds the write lock.
 */
export async function writeTransaction<T>(
  db: Kysely<Database>,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  // Inside a caller's transaction (a whole CSV import is one): the write is part of it, all or nothing.
  if (db.isTransaction) return fn(db as Transaction<Database>);
  for (let attempt = 1; ; attempt++) {
    try {
      // SQLite: in this process's write queue, waiting for other processes' locks (db/sqlite-writes.ts).
      return await lockWaitingTransaction(db, fn);
    } catch (err) {
      if (isTransactionConflict(err) && attempt < MAX_CONFLICT_ATTEMPTS) {
        await new Promise((r) => setTimeout(r, conflictBackoffMs(attempt)));
        continue;
      }
      if (!isUniqueViolation(err) || attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
    }
  }
}

/**
 * Counts committed changes so cached answers never outlive the data they show: this process's writes bump it, and
 * a change committed through another connection (seen by the store's change signal) bumps it on the next read.
 * A cached answer keeps the generation it was read under and is served only while that is still current.
 */
export class WriteGeneration {
  private local = 0;
  private seen: number;

  constructor(private readonly changes?: { read(): number }) {
    this.seen = changes?.read() ?? 0;
  }

  get value(): number {
    if (this.changes !== undefined) {
      const v = this.changes.read();
      if (v !== this.seen) {
        this.seen = v;
        this.local++;
      }
    }
    return this.local;
  }

  bump(): void {
    this.local++;
  }
}
