import type { Migration } from 'kysely';

/**
 * Schema version 3: the term → event index also holds the event id, so recounting a term after a write (and the
 * category and tag filters of lists) read the index alone instead of looking each link row up again. It replaces
 * the term-only index, which it covers.
 */
export const termLinksIndexMigration: Migration = {
  async up(db) {
    await db.schema.createIndex('event_terms_term_event').on('event_terms').columns(['term_id', 'event_id']).execute();
    await db.schema.dropIndex('event_terms_term').execute();
  },
};
