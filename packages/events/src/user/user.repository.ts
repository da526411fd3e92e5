import type { Kysely } from 'kysely';
import { reusableByIds, type Database } from '../db/index.ts';

export interface UserRow {
  id: number;
  login: string;
  email: string;
  display_name: string;
  role: string;
  created_gmt: string;
  url: string;
}

export function userRepository(db: Kysely<Database>) {
  const withPassword = reusableByIds<UserRow>(db, ([passwordId, userId]) =>
    db
      .selectFrom('users')
      .innerJoin('app_passwords', 'app_passwords.user_id', 'users.id')
      .select([
        'users.id',
        'users.login',
        'users.email',
        'users.display_name',
        'users.role',
        'users.created_gmt',
        'users.url',
      ])
      .where('app_passwords.id', '=', passwordId!)
      .where('users.id', '=', userId!),
  );
  return {
    /** The user, when it still exists and still has this application password: one query per authenticated request. */
    findWithPassword: async (userId: number, passwordId: number): Promise<UserRow | undefined> =>
      (await withPassword([passwordId, userId]))[0],
    async insert(u: Omit<UserRow, 'id' | 'url'> & { url?: string }): Promise<number> {
      const row = await db.insertInto('users').values(u).returning('id').executeTakeFirstOrThrow();
      return row.id;
    },
    findByLogin: (login: string) => db.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirst(),
    findById: (id: number) => db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst(),
    firstWithRole: (role: string) =>
      db.selectFrom('users').selectAll().where('role', '=', role).orderBy('id').limit(1).executeTakeFirst(),
    async existsId(id: number): Promise<boolean> {
      return (await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },
    list: () => db.selectFrom('users').selectAll().orderBy('id').execute(),
    /**
     * Users who have published posts (`has_published_posts` of `/wp/v2/users`): every post type here (events, venues,
     * organizers) is public and in REST, and only `publish` counts, as `count_user_posts` counts for anonymous callers.
     */
    async withPublishedPosts(): Promise<Set<number>> {
      const rows = await db.selectFrom('posts').select('author').distinct().where('status', '=', 'publish').execute();
      return new Set(rows.map((r) => r.author));
    },
    async remove(login: string): Promise<boolean> {
      const r = await db.deleteFrom('users').where('login', '=', login).executeTakeFirst();
      return Number(r.numDeletedRows) > 0;
    },
    async setRole(login: string, role: string): Promise<boolean> {
      const r = await db.updateTable('users').set({ role }).where('login', '=', login).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async addPassword(userId: number, name: string, hash: string, created: string): Promise<number> {
      const row = await db
        .insertInto('app_passwords')
        .values({ user_id: userId, name, hash, created_gmt: created })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    passwordsOf: (userId: number) =>
      db.selectFrom('app_passwords').selectAll().where('user_id', '=', userId).orderBy('id').execute(),
    async passwordExists(id: number): Promise<boolean> {
      return (await db.selectFrom('app_passwords').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
    },
  };
}

export type UserRepository = ReturnType<typeof userRepository>;
