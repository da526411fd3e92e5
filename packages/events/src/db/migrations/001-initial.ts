import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import type { DbKind } from '../connection.ts';

/** Schema version 1: posts with per-type detail tables, terms, users and application passwords. */
export function initialMigration(kind: DbKind): Migration {
  // SQLite needs AUTOINCREMENT so trashed-then-purged ids are never reused; PostgreSQL uses a sequence.
  const idColumn = (db: Kysely<unknown>, table: string) =>
    kind === 'postgres'
      ? db.schema.createTable(table).addColumn('id', 'serial', (c) => c.primaryKey())
      : db.schema.createTable(table).addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  return {
    async up(db) {
      await idColumn(db, 'posts')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('author', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('password', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('date_local', 'text', (c) => c.notNull())
        .addColumn('date_gmt', 'text', (c) => c.notNull())
        .addColumn('modified_local', 'text', (c) => c.notNull())
        .addColumn('modified_gmt', 'text', (c) => c.notNull())
        .addColumn('menu_order', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // Slugs are unique per type: concurrent writers race on this index and retry with the next suffix.
      await db.schema.createIndex('posts_type_slug').unique().on('posts').columns(['type', 'slug']).execute();
      await db.schema
        .createIndex('posts_type_status_date')
        .on('posts')
        .columns(['type', 'status', 'date_gmt'])
        .execute();
      await db.schema
        .createTable('events')
        .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
        .addColumn('start_local', 'text', (c) => c.notNull())
        .addColumn('end_local', 'text', (c) => c.notNull())
        .addColumn('start_utc', 'text', (c) => c.notNull())
        .addColumn('end_utc', 'text', (c) => c.notNull())
        .addColumn('timezone', 'text', (c) => c.notNull())
        .addColumn('all_day', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cost', 'text')
        .addColumn('currency_symbol', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('currency_position', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('website', 'text')
        .addColumn('show_map', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('show_map_link', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('hide_from_listings', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('featured', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('venue_id', 'integer')
        .addColumn('parent_id', 'integer')
        .execute();
      await db.schema.createIndex('events_start').on('events').columns(['start_local', 'post_id']).execute();
      await db.schema.createIndex('events_venue').on('events').column('venue_id').execute();
      await db.schema.createIndex('events_parent').on('events').column('parent_id').execute();
      await db.schema
        .createTable('venues')
        .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
        .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('province', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('state', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('zip', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('stateprovince', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('show_map', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('show_map_link', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('geo_lat', 'double precision')
        .addColumn('geo_lng', 'double precision')
        .execute();
      await db.schema
        .createTable('organizers')
        .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
        .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema
        .createTable('event_organizers')
        .addColumn('event_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('organizer_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_organizers_pk', ['event_id', 'organizer_id'])
        .execute();
      await db.schema.createIndex('event_organizers_org').on('event_organizers').column('organizer_id').execute();
      await idColumn(db, 'terms')
        .addColumn('taxonomy', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('parent', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('terms_taxonomy_slug').unique().on('terms').columns(['taxonomy', 'slug']).execute();
      // WordPress refuses a second term with the same name under the same parent; the index makes that race-proof.
      await sql`create unique index terms_taxonomy_parent_name on terms (taxonomy, parent, lower(name))`.execute(db);
      await db.schema
        .createTable('event_terms')
        .addColumn('event_id', 'integer', (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('term_id', 'integer', (c) => c.notNull().references('terms.id').onDelete('cascade'))
        .addPrimaryKeyConstraint('event_terms_pk', ['event_id', 'term_id'])
        .execute();
      await db.schema.createIndex('event_terms_term').on('event_terms').column('term_id').execute();
      await idColumn(db, 'users')
        .addColumn('login', 'text', (c) => c.notNull().unique())
        .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_gmt', 'text', (c) => c.notNull())
        .execute();
      await idColumn(db, 'app_passwords')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('created_gmt', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('app_passwords_user').on('app_passwords').column('user_id').execute();
    },
  };
}
