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
  const bad = columns.map(
    (c) => sql`${sql.ref(c)} < ${min} or ${sql.ref(c)} > ${max} or ${sql.ref(c)} not like ${'____-__-__ __:__:__'}`,
  );
  return sql<SqlBool>`(${sql.join(bad, sql` or `)})`;
}

/** N when `slug` is `base-N` with N ≥ 2 written plainly (WordPress's suffixes), else undefined. */
function suffixOf(base: string, slug: string | undefined): number | undefined {
  if (slug === undefined || !slug.startsWith(`${base}-`)) return undefined;
  const digits = slug.slice(base.length + 1);
  return /^[1-9][0-9]{0,14}$/.test(digits) && digits !== '1' ? Number(digits) : undefined;
}

/** PostgreSQL LIKE pattern of the slugs starting with `base-` (`%`, `_` and `\\` in slugs matched as themselves). */
const likePrefix = (base: string): string => `${base.replace(/[%_\\]/g, '\\$&')}-%`;

/** SQL shared by the three post types: lookups, unique slugs, trashing. */
export function postRepository(db: Kysely<Database>) {
  /** Every slug of `type` that is `base` or starts with `base-`, except the post `exceptId`'s. */
  async function takenSlugs(type: PostType, base: string, exceptId?: number): Promise<Set<string>> {
    // SQLite's LIKE ignores case and so cannot use the (type, slug) index: it scanned every post on each write.
    // Its index is in byte order, where the slugs starting with `base-` are exactly those in [`base-`, `base.`).
    const suffixed = isPostgres(db)
      ? (eb: ExpressionBuilder<Database, 'posts'>) => eb('slug', 'like', likePrefix(base))
      : (eb: ExpressionBuilder<Database, 'posts'>) =>
          eb.and([eb('slug', '>=', `${base}-`), eb('slug', '<', `${base}.`)]);
    let q = db
      .selectFrom('posts')
      .select('slug')
      .where('type', '=', type)
      .where((eb) => eb.or([eb('slug', '=', base), suffixed(eb)]));
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return new Set((await q.execute()).map((r) => r.slug));
  }

  /**
   * Whether `base` is taken, and how many `base-N` (N ≥ 2, plain digits, no leading zero) are with the largest N: one
   * query over the (type, slug) index range of `base-`, nothing read but the two numbers. `undefined` for a base
   * that is not ASCII (character and byte offsets would differ; sanitized slugs are ASCII).
   */
  async function suffixStats(
    type: PostType,
    base: string,
    exceptId?: number,
  ): Promise<{ baseTaken: boolean; count: number; top: number } | undefined> {
    if (!/^[\x20-\x7e]*$/.test(base)) return undefined;
    const prefix = `${base}-`;
    const from = prefix.length + 1; // 1-based start of the suffix
    const other = exceptId === undefined ? sql`` : sql` and id <> ${exceptId}`;
    const digits = sql`substr(slug, ${from})`;
    const row = isPostgres(db)
      ? await sql<{ base_taken: boolean; n: string | number; top: string | number | null }>`
          select exists(select 1 from posts where type = ${type} and slug = ${base}${other}) as base_taken,
                 count(*) as n, max(cast(${digits} as bigint)) as top
          from posts where type = ${type} and slug like ${likePrefix(base)}
            and ${digits} ~ '^[1-9][0-9]{0,14}$' and ${digits} <> '1'${other}`.execute(db)
      : await sql<{ base_taken: number; n: number; top: number | null }>`
          select exists(select 1 from posts where type = ${type} and slug = ${base}${other}) as base_taken,
                 count(*) as n, max(cast(${digits} as integer)) as top
          from posts where type = ${type} and slug >= ${prefix} and slug < ${`${base}.`}
            and ${digits} glob '[1-9]*' and ${digits} not glob '*[^0-9]*' and length(${digits}) <= 15 and ${digits} <> '1'${other}`.execute(
          db,
        );
    const r = row.rows[0]!;
    const count = Number(r.n);
    const top = r.top === null ? 0 : Number(r.top);
    return { baseTaken: Boolean(r.base_taken), count, top: count === 0 ? 0 : top };
  }

  async function isTaken(type: PostType, slug: string, exceptId?: number): Promise<boolean> {
    let q = db.selectFrom('posts').select('id').where('type', '=', type).where('slug', '=', slug);
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
    return (await q.limit(1).executeTakeFirst()) !== undefined;
  }

  async function readHint(type: PostType, base: string): Promise<number | undefined> {
    const r = await db
      .selectFrom('slug_hints')
      .select('hint')
      .where('type', '=', type)
      .where('base', '=', base)
      .executeTakeFirst();
    return r === undefined ? undefined : Number(r.hint);
  }

  /**
   * A hint for a base that has none (first create with this title since migration 015, or the row was never
   * written): the top suffix + 1 when `base-2`…`base-top` are all taken (one aggregate query), else the first free
   * suffix from reading every taken one. Either way every suffix below it is taken, with or without `exceptId`.
   */
  async function rebuiltHint(type: PostType, base: string, exceptId?: number): Promise<number> {
    const fast = await suffixStats(type, base, exceptId);
    if (fast !== undefined && fast.count === Math.max(0, fast.top - 1)) return fast.count === 0 ? 2 : fast.top + 1;
    const free = nextFreeSlug(base, new Set([...(await takenSlugs(type, base, exceptId)), base]));
    return suffixOf(base, free)!;
  }

  return {
    findById: (id: number): Promise<PostRow | undefined> =>
      db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst(),
    findBySlug: (type: PostType, slug: string): Promise<PostRow | undefined> =>
      db.selectFrom('posts').selectAll().where('type', '=', type).where('slug', '=', slug).executeTakeFirst(),
    /**
     * The free slug for `base` in `type`, ignoring the post `exceptId` (its own current slug): `base`, else WordPress's
     * first free `base-N` from N = 2 (`wp_unique_post_slug`). Found from the base's hint (migration 015: `base-2` …
     * `base-(hint-1)` are taken) by probing one indexed slug at a time from there, and the hint raised to what was
     * found, so a run of creates with one title costs O(1) each (issue 25) instead of reading every `base-N`.
     */
    async freeSlug(type: PostType, base: string, exceptId?: number): Promise<string> {
      await lockKey(db, `slug:${type}:${base}`);
      if (!(await isTaken(type, base, exceptId))) return base;
      const known = await readHint(type, base);
      let n = known ?? (await rebuiltHint(type, base, exceptId));
      if (exceptId !== undefined) {
        // The hint counts this post's own `base-K` as taken; below the hint it is the first one free without it.
        const own = suffixOf(
          base,
          (await db.selectFrom('posts').select('slug').where('id', '=', exceptId).executeTakeFirst())?.slug,
        );
        if (own !== undefined && own < n) return `${base}-${own}`;
      }
      while (await isTaken(type, `${base}-${n}`, exceptId)) n += 1;
      if (n !== known) {
        await db
          .insertInto('slug_hints')
          .values({ type, base, hint: n })
          .onConflict((oc) => oc.columns(['type', 'base']).doUpdateSet({ hint: n }))
          .execute();
      }
      return `${base}-${n}`;
    },
    /** Inserts a post; its guid is fixed now, from the permalink it has at creation (migration 013). */
    async insert(row: Omit<PostRow, 'id' | 'guid_slug'>): Promise<number> {
      const guid = hasUglyPermalink(row.status) ? '' : row.slug;
      const r = await db
        .insertInto('posts')
        .values({ ...row, guid_slug: guid })
        .returning('id')
        .executeTakeFirstOrThrow();
      return r.id;
    },
    /** Sets (or with '' clears) the viewing password of an event, venue or organizer; false when there is none with `id`. */
    async setPassword(id: number, password: string): Promise<boolean> {
      const r = await db
        .updateTable('posts')
        .set({ password })
        .where('id', '=', id)
        .where('type', 'in', ['tribe_events', 'tribe_venue', 'tribe_organizer'])
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },
    /** Posts of any type whose post dates look broken (see `anyBadDate`). */
    badDates: () =>
      db
        .selectFrom('posts')
        .select(['id', 'type', ...POST_DATE_COLUMNS])
        .where(anyBadDate(POST_DATE_COLUMNS))
        .orderBy('id')
        .execute(),
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
