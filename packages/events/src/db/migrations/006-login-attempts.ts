import type { Migration } from 'kysely';

/**
 * Schema version 6: login attempts per address and per login, counted in the database so that every instance on one
 * database shares them and a burst is counted atomically (one upsert per attempt). Not calendar data: no change
 * notification trigger, so counting never drops the response caches.
 */
export const loginAttemptsMigration: Migration = {
  async up(db) {
    await db.schema
      .createTable('login_attempts')
      // `ip:ADDRESS` or `user:HASH` (sha-256 of the lower-cased login, so a huge login cannot bloat the table).
      .addColumn('bucket', 'text', (c) => c.primaryKey())
      // Minutes since the epoch: attempts count per calendar minute.
      .addColumn('minute', 'integer', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('login_attempts_minute').on('login_attempts').column('minute').execute();
  },
};
