// PostgreSQL aborts one transaction of a lock cycle (40P01) or of a serialization conflict (40001); the transaction
// did nothing and may simply run again. Writers of one series take its lock first (src/recurrence/series.lock.ts), so
// these are rare; the retry covers cycles between different entities (a series and a venue, two series' terms).

/** SQLSTATEs of a transaction PostgreSQL rolled back to break a deadlock or a serialization conflict. */
const CONFLICT_CODES = new Set(['40P01', '40001']);

/** Runs of a write transaction, the first included, before a conflict is answered as an error. */
export const MAX_CONFLICT_ATTEMPTS = 5;

/** True when `err` is a deadlock or serialization failure: the transaction was rolled back whole and can be retried. */
export function isTransactionConflict(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONFLICT_CODES.has(code);
}

/**
 * Milliseconds to wait before run `attempt + 1`: random in [0, 10·2^attempt) (full jitter), so the transactions
 * of a cycle do not meet again in step: under 20 ms after the first conflict, under 160 ms after the fourth.
 */
export const conflictBackoffMs = (attempt: number, random: () => number = Math.random): number =>
  random() * 10 * 2 ** attempt;
