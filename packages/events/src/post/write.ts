import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/index.ts';
import { isUniqueViolation } from '../db/index.ts';

/**
 * Runs a write in one transaction and retries it when a unique index (slug, term name) was taken by a concurrent
 * writer in between: the retry re-reads the taken slugs and picks the next suffix.
 */
export async function writeTransaction<T>(db: Kysely<Database>, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(fn);
    } catch (err) {
      if (!isUniqueViolation(err) || attempt >= 20) throw err;
      await new Promise((r) => setTimeout(r, Math.random() * 5 * attempt));
    }
  }
}

/** Bumped on every committed write so cached responses never outlive the data they show. */
export interface WriteGeneration { value: number }
