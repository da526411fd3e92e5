import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/index.ts';

/** How one import treats a write its item made the store refuse. */
export interface ItemRefusals<T> {
  /** Undo a refused item alone (a savepoint each) and go on, instead of refusing the whole import. */
  readonly skipBad: boolean;
  /** Why the item was refused, or undefined for an error that is not the item's (the store failing): rethrown. */
  reasonOf(err: unknown): string | undefined;
  /** The error refusing the whole import because of this item (without `skipBad`). */
  refuseAll(item: T, reason: string): Error;
  /** Records a skipped item (with `skipBad`); state the undone write had changed is reset here. */
  skipped(item: T, reason: string): void;
}

const SAVEPOINT = sql.raw('import_item');

/**
 * The write loop of every import (CSV rows, iCalendar series, items of a site running the plugin), inside the
 * import's one transaction: checks ran before, yet a write may still refuse an item (a date out of range is found
 * when the dates are computed). That refuses the whole import, or with `skipBad` rolls back to the item's savepoint,
 * so nothing half-written stays either way. Returns how many items were written.
 */
export async function writeItems<T>(
  db: Kysely<Database>,
  items: Iterable<T>,
  write: (item: T) => Promise<unknown>,
  on: ItemRefusals<T>,
): Promise<number> {
  let written = 0;
  for (const item of items) {
    if (!on.skipBad) {
      await write(item).catch((err: unknown) => {
        const reason = on.reasonOf(err);
        throw reason === undefined ? err : on.refuseAll(item, reason);
      });
      written++;
      continue;
    }
    await sql`savepoint ${SAVEPOINT}`.execute(db);
    try {
      await write(item);
      await sql`release savepoint ${SAVEPOINT}`.execute(db);
      written++;
    } catch (err) {
      const reason = on.reasonOf(err);
      if (reason === undefined) throw err;
      await sql`rollback to savepoint ${SAVEPOINT}`.execute(db);
      on.skipped(item, reason);
    }
  }
  return written;
}
