import type { Migration } from 'kysely';

/**
 * Migration 014: a user's website (WordPress's `user_url`), which `/wp/v2/users/me` reports as `url`. The e-mail
 * that its Gravatar `avatar_urls` come from is in `users.email` since 001. Existing users get `''`, as a WordPress
 * user created without a website has.
 */
export const userUrlMigration: Migration = {
  async up(db) {
    await db.schema
      .alterTable('users')
      .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
};
