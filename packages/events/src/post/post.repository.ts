import type { ExpressionBuilder, Kysely } from 'kysely';
import { isPostgres, lockKey, type Database, type PostType, type PostsTable } from '../db/index.ts';
import { nextFreeSlug } from './slug.ts';

export type PostRow = Omit<PostsTable, 'id'> & { id: number };

/** SQL shared by the three post types: lookups, unique slugs, trashing. */
export function postRepository(db: Kysely<Database>) {
  return {
    findById: (id: number): Promise<PostRow | undefined> =>
      db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst(),
    findBySlug: (type: PostType, slug: string): Promise<PostRow | undefined> =>
      db.selectFrom('posts').selectAll().where('type', '=', type).where('slug', '=', slug).executeTakeFirst(),
    /** The free slug for `base` in `type`, ignoring the post `exceptId` (its own current slug). */
    async freeSlug(type: PostType, base: string, exceptId?: number): Promise<string> {
      await lockKey(db, `slug:${type}:${base}`);
      // SQLite's LIKE ignores case and so cannot use the (type, slug) index: it scanned every post on each write.
      // Its index is in byte order, where the slugs starting with `base-` are exactly those in [`base-`, `base.`).
      const suffixed = isPostgres(db)
        ? (eb: ExpressionBuilder<Database, 'posts'>) => eb('slug', 'like', `${base.replace(/[%_\\]/g, '')}-%`)
        : (eb: ExpressionBuilder<Database, 'posts'>) => eb.and([eb('slug', '>=', `${base}-`), eb('slug', '<', `${base}.`)]);
      let q = db.selectFrom('posts').select('slug').where('type', '=', type)
        .where((eb) => eb.or([eb('slug', '=', base), suffixed(eb)]));
      if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
      const taken = new Set((await q.execute()).map((r) => r.slug));
      return nextFreeSlug(base, taken);
    },
    async insert(row: Omit<PostRow, 'id'>): Promise<number> {
      const r = await db.insertInto('posts').values(row).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    /** Sets (or with '' clears) the viewing password of an event, venue or organizer; false when there is none with `id`. */
    async setPassword(id: number, password: string): Promise<boolean> {
      const r = await db.updateTable('posts').set({ password }).where('id', '=', id)
        .where('type', 'in', ['tribe_events', 'tribe_venue', 'tribe_organizer']).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    async update(id: number, patch: Partial<Omit<PostRow, 'id' | 'type'>>): Promise<void> {
      if (Object.keys(patch).length === 0) return;
      await db.updateTable('posts').set(patch).where('id', '=', id).execute();
    },
  };
}
