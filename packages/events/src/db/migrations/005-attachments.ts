import type { Migration } from 'kysely';
import { sql } from 'kysely';
import type { DbKind } from '../connection.ts';

/**
 * Schema version 5: a media library. An attachment is a post of type `attachment` (sharing the post id sequence, as
 * in WordPress) plus a detail row with its file, type, dimensions and generated sizes. Events, venues and organizers
 * name their featured image by attachment id (WordPress `_thumbnail_id`).
 */
export function attachmentsMigration(kind: DbKind): Migration {
  return {
    async up(db) {
      await db.schema
        .createTable('attachments')
        .addColumn('post_id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
        // Relative to the uploads folder, `YYYY/MM/name.ext` (WordPress `_wp_attached_file`); one row per file.
        .addColumn('file', 'text', (c) => c.notNull().unique())
        .addColumn('mime_type', 'text', (c) => c.notNull())
        .addColumn('width', 'integer', (c) => c.notNull())
        .addColumn('height', 'integer', (c) => c.notNull())
        .addColumn('filesize', 'integer', (c) => c.notNull())
        // The URL an import came from, so the same URL sent again reuses the attachment instead of downloading it.
        .addColumn('source_url', 'text')
        // JSON object of generated sizes: {name: {file, width, height, mime_type, filesize}} in WordPress order.
        .addColumn('sizes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema.createIndex('attachments_source_url').on('attachments').column('source_url').execute();
      for (const table of ['events', 'venues', 'organizers']) {
        await db.schema.alterTable(table).addColumn('thumbnail_id', 'integer').execute();
      }
      if (kind === 'postgres') {
        // The same change notification migration 004 installs on every other table.
        await sql
          .raw(
            `create trigger attachments_notify_change after insert or update or delete or truncate on attachments
          for each statement execute function events_notify_change()`,
          )
          .execute(db);
      }
    },
  };
}
