import type { Migration } from 'kysely';

/**
 * Schema version 18 (issue 30 item 3): `tec_links` maps an item of a site running the plugin (its API root without
 * the scheme, its list and its id there) to the post or term it became here, so `events import tec` matches an item
 * again by its source id, whatever either side's slug became. No foreign key: `local_id` is a post of `venues`,
 * `organizers` and `events`, a term of `categories` and `tags`; an import checks the item still exists (a link to a
 * deleted or trashed item is treated as no link). Not calendar data: no change-notification or webhook trigger.
 */
export const tecLinksMigration: Migration = {
  async up(db) {
    await db.schema
      .createTable('tec_links')
      .addColumn('source', 'text', (c) => c.notNull())
      // categories, tags, venues, organizers or events (TEC_KINDS).
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('source_id', 'integer', (c) => c.notNull())
      .addColumn('local_id', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('tec_links_pk', ['source', 'kind', 'source_id'])
      .execute();
    // Whether a local item is linked at all: a linked item is never taken by another item's slug.
    await db.schema.createIndex('tec_links_local').on('tec_links').columns(['kind', 'local_id']).execute();
  },
};
