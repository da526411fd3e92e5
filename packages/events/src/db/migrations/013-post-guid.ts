import type { Migration } from 'kysely';

/**
 * Schema version 13: `events.duration` (TEC's `_EventDuration`, see db/schema.ts) and `posts.guid_slug`, what a post's WordPress `guid` is made of. WordPress fixes the guid when the
 * post is created (its permalink then) and never changes it; `tec/v1` shows it. `''`: created without a public
 * permalink (draft, pending, scheduled), so its guid is `?post_type=…&p=ID`; a slug: created published with that slug;
 * NULL: a post written before version 13, whose guid is taken to be its current permalink.
 */
export const postGuidMigration: Migration = {
  async up(db) {
    await db.schema.alterTable('posts').addColumn('guid_slug', 'text').execute();
    await db.schema.alterTable('events').addColumn('duration', 'integer').execute();
  },
};
