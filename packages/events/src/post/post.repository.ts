import { hasUglyPermalink } from './dates.ts';
import { sql, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { isPostgres, lockKey, type Database, type PostType, type PostsTable } from '../db/index.ts';
import { nextFreeSlug } from './slug.ts';
import { STORABLE_RANGE } from '../time/index.ts';

export type PostRow = Omit<PostsTable, 'id'> & { id: number };

export const POST_DATE_COLUMNS = ['date_local', 'date_gmt', 'modified_local', 'modified_gmt'] as const;

/**
 * Rows where any of `columns` is not a storable `YYYY-MM-DD HH:MM:SS` as far as SQL can tell the same way on both
 * stores (out of range or the wrong shape); callers confirm each hit with `readStoredWall`.
 */
export function anyBadDate(columns: readonly string[]): RawBuilder<SqlBool> {
  const { min, max } = STORABLE_RANGE;
  const bad = columns.map((c) => sql`${sql.ref(c)} < ${min} or ${sql.ref(c)} > ${max} or ${sql.ref(c)} not like ${'____-__-__ __:__:__'}`);
  return sql<SqlBool>`(${sql.join(bad, sql` or `)})`;
}

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
    /** Inserts a post; its guid is fixed now, from the permalink it has at creation (migration 013). */
    async insert(row: Omit<PostRow, 'id' | 'guid_slug'>): Promise<number> {
      const guid = hasUglyPermalink(row.status) ? '' : row.slug;
      const r = await db.insertInto('posts').values({ ...row, guid_slug: guid }).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    /** Sets (or with '' clears) the viewing password of an event, venue or organizer; false when there is none with `id`. */
    async setPassword(id: number, password: string): Promise<boolean> {
      const r = await db.updateTable('posts').set({ password }).where('id', '=', id)
        .where('type', 'in', ['tribe_events', 'tribe_venue', 'tribe_organizer']).executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /** Posts of any type whose post dates look broken (see `anyBadDate`). */
    badDates: () => db.selectFrom('posts').select(['id', 'type', ...POST_DATE_COLUMNS])
      .where(anyBadDate(POST_DATE_COLUMNS)).orderBy('id').execute(),
    /** Deletes a post for good; its details, links and terms go with it (foreign keys cascade). */
    async remove(id: number): Promise<void> {
      await db.deleteFrom('posts').where('id', '=', id).execute();
    },
    async update(id: number, patch: Partial<Omit<PostRow, 'id' | 'type'>>): Promise<void> {
      if (Object.keys(patch).length === 0) return;
      await db.updateTable('posts').set(patch).where('id', '=', id).execute();
    },
  };
}
