import { sql, type Migration } from 'kysely';

/**
 * Schema version 7 (006 is the login-attempts table): term names may repeat under one parent. WordPress refuses a
 * duplicate name only when a term is created; `wp_update_term` lets a rename take another term's name (only slugs
 * stay unique). The name index stays for lookups by name, no longer unique.
 */
export const termNamesRepeatMigration: Migration = {
  async up(db) {
    await db.schema.dropIndex('terms_taxonomy_parent_name').execute();
    await sql`create index terms_taxonomy_parent_name on terms (taxonomy, parent, lower(name))`.execute(db);
  },
};
