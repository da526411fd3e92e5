import { sql, type Kysely } from 'kysely';
import { lockKey, reusableByIds, type Database, type Taxonomy, type TermsTable } from '../db/index.ts';

export type TermRow = Omit<TermsTable, 'id' | 'count'> & { id: number };
export type TermWithCount = TermRow & { count: number };

/** Case-insensitive code-point order, as MySQL's default collation sorts term names. */
export const byName = (a: TermRow, b: TermRow): number => {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : a.id - b.id;
};

/** SQL for categories and tags; `count` is the number of published events carrying the term. */
export function termRepository(db: Kysely<Database>) {
  const counted = () => db.selectFrom('terms').selectAll('terms');
  const withCount = (r: TermRow & { count: unknown }): TermWithCount => ({ ...r, count: Number(r.count ?? 0) });
  // Pages share a few dozen terms among their events: the links come from the covering index and each term row is
  // read once, instead of one joined row (all term columns) per link.
  const linksOf = reusableByIds(db, (ids) =>
    db.selectFrom('event_terms').select(['event_id', 'term_id']).where('event_id', 'in', ids),
  );
  const termsOf = reusableByIds(db, (ids) =>
    db
      .selectFrom('terms')
      .select(['id', 'taxonomy', 'name', 'slug', 'description', 'parent', 'count'])
      .where('id', 'in', db.selectFrom('event_terms').select('term_id').where('event_id', 'in', ids)),
  );
  return {
    async findById(taxonomy: Taxonomy, id: number): Promise<TermWithCount | undefined> {
      const r = await counted().where('terms.taxonomy', '=', taxonomy).where('terms.id', '=', id).executeTakeFirst();
      return r && withCount(r);
    },
    async exists(taxonomy: Taxonomy, id: number): Promise<boolean> {
      return (
        (await db
          .selectFrom('terms')
          .select('id')
          .where('taxonomy', '=', taxonomy)
          .where('id', '=', id)
          .executeTakeFirst()) !== undefined
      );
    },
    /** A term whose slug equals `ref` or whose name equals it case-insensitively. */
    /** Holds the term-name lock for the rest of the transaction, then looks the name up. */
    lockName: (taxonomy: Taxonomy, name: string) => lockKey(db, `term:${taxonomy}:${name.toLowerCase()}`),
    findBySlugOrName: (taxonomy: Taxonomy, ref: string) =>
      db
        .selectFrom('terms')
        .selectAll()
        .where('taxonomy', '=', taxonomy)
        .where((eb) => eb.or([eb('slug', '=', ref), eb(eb.fn('lower', ['name']), '=', ref.toLowerCase())]))
        .orderBy('id')
        .executeTakeFirst(),
    findByName: (taxonomy: Taxonomy, parent: number, name: string) =>
      db
        .selectFrom('terms')
        .select('id')
        .where('taxonomy', '=', taxonomy)
        .where('parent', '=', parent)
        .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()))
        .executeTakeFirst(),
    /** Slug and parent of every term of the taxonomy (hierarchical URLs, unique child slugs). */
    async tree(taxonomy: Taxonomy): Promise<Map<number, { slug: string; parent: number }>> {
      const rows = await db
        .selectFrom('terms')
        .select(['id', 'slug', 'parent'])
        .where('taxonomy', '=', taxonomy)
        .execute();
      return new Map(rows.map((r) => [r.id, { slug: r.slug, parent: r.parent }]));
    },
    async slugsLike(taxonomy: Taxonomy, base: string, exceptId?: number): Promise<Set<string>> {
      let q = db
        .selectFrom('terms')
        .select('slug')
        .where('taxonomy', '=', taxonomy)
        .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base.replace(/[%_\\]/g, '')}-%`)]));
      if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
      return new Set((await q.execute()).map((r) => r.slug));
    },
    async list(
      taxonomy: Taxonomy,
      f: { search?: string; include?: number[]; exclude?: number[]; parent?: number; eventId?: number; slug?: string },
    ): Promise<TermWithCount[]> {
      let q = counted().where('terms.taxonomy', '=', taxonomy);
      if (f.search) {
        const like = `%${f.search.toLowerCase().replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
        q = q.where((eb) =>
          eb.or([
            eb(eb.fn('lower', ['terms.name']), 'like', sql<string>`${like} escape '\\'`),
            eb(eb.fn('lower', ['terms.slug']), 'like', sql<string>`${like} escape '\\'`),
          ]),
        );
      }
      if (f.include?.length) q = q.where('terms.id', 'in', f.include);
      if (f.exclude?.length) q = q.where('terms.id', 'not in', f.exclude);
      if (f.parent !== undefined) q = q.where('terms.parent', '=', f.parent);
      if (f.slug !== undefined) q = q.where('terms.slug', '=', f.slug);
      if (f.eventId !== undefined) {
        const eventId = f.eventId;
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('event_terms')
              .select('event_terms.term_id')
              .whereRef('event_terms.term_id', '=', 'terms.id')
              .where('event_terms.event_id', '=', eventId),
          ),
        );
      }
      return (await q.execute()).map(withCount);
    },
    async insert(row: Omit<TermRow, 'id'>): Promise<number> {
      return (await db.insertInto('terms').values(row).returning('id').executeTakeFirstOrThrow()).id;
    },
    async update(id: number, patch: Partial<Omit<TermRow, 'id' | 'taxonomy'>>): Promise<void> {
      if (Object.keys(patch).length > 0) await db.updateTable('terms').set(patch).where('id', '=', id).execute();
    },
    async remove(term: TermRow): Promise<void> {
      await db.updateTable('terms').set({ parent: term.parent }).where('parent', '=', term.id).execute();
      await db.deleteFrom('event_terms').where('term_id', '=', term.id).execute();
      await db.deleteFrom('terms').where('id', '=', term.id).execute();
    },
    /** Terms of many events at once, with counts, for list formatting. */
    async termsOfEvents(eventIds: readonly number[]): Promise<Map<number, TermWithCount[]>> {
      const out = new Map<number, TermWithCount[]>();
      if (eventIds.length === 0) return out;
      const [links, rows] = await Promise.all([linksOf(eventIds), termsOf(eventIds)]);
      const terms = new Map(rows.map((l) => [l.id, l]));
      for (const { event_id: eventId, term_id: termId } of links) {
        const l = terms.get(termId);
        // A term deleted between the two reads is left out, as the join would have left it out.
        if (l === undefined) continue;
        const list = out.get(eventId) ?? [];
        list.push({
          id: l.id,
          taxonomy: l.taxonomy,
          name: l.name,
          slug: l.slug,
          description: l.description,
          parent: l.parent,
          count: Number(l.count),
        });
        out.set(eventId, list);
      }
      for (const list of out.values()) list.sort(byName);
      return out;
    },
    /** Term ids an event carries now, for recounting after a write. */
    async termIdsOf(eventId: number): Promise<number[]> {
      return (await db.selectFrom('event_terms').select('term_id').where('event_id', '=', eventId).execute()).map(
        (r) => r.term_id,
      );
    },
    /**
     * Recomputes stored counts. On PostgreSQL each term is locked first (in id order, so writers cannot deadlock),
     * which makes the count statement see every commit that touched the term before it.
     */
    async recount(termIds: readonly number[]): Promise<void> {
      const ids = [...new Set(termIds)].sort((a, b) => a - b);
      if (ids.length === 0) return;
      for (const id of ids) await lockKey(db, `termcount:${id}`);
      await sql`update terms set count = (select count(*) from event_terms et inner join posts p on p.id = et.event_id
        where et.term_id = terms.id and p.status = 'publish') where id in (${sql.join(ids)})`.execute(db);
    },
    /**
     * Adds a just-inserted published event to its terms' counts. A recount would count every event of each term on
     * every create (in the bench, thousands of rows per create for a busy category); locked like `recount`, the
     * increment sees every commit before it.
     */
    async countNewEvent(termIds: readonly number[]): Promise<void> {
      const ids = [...new Set(termIds)].sort((a, b) => a - b);
      if (ids.length === 0) return;
      for (const id of ids) await lockKey(db, `termcount:${id}`);
      await db
        .updateTable('terms')
        .set({ count: sql<number>`count + 1` })
        .where('id', 'in', ids)
        .execute();
    },
    /** Replaces the event's terms of one taxonomy; `fresh` says the event was just inserted and has no links yet. */
    async setEventTerms(eventId: number, taxonomy: Taxonomy, termIds: readonly number[], fresh = false): Promise<void> {
      const current = fresh
        ? []
        : await db
            .selectFrom('event_terms')
            .innerJoin('terms', 'terms.id', 'event_terms.term_id')
            .select('terms.id')
            .where('event_terms.event_id', '=', eventId)
            .where('terms.taxonomy', '=', taxonomy)
            .execute();
      if (current.length > 0) {
        await db
          .deleteFrom('event_terms')
          .where('event_id', '=', eventId)
          .where(
            'term_id',
            'in',
            current.map((c) => c.id),
          )
          .execute();
      }
      const unique = [...new Set(termIds)];
      if (unique.length > 0) {
        await db
          .insertInto('event_terms')
          .values(unique.map((term_id) => ({ event_id: eventId, term_id })))
          .execute();
      }
    },
  };
}

export type TermRepository = ReturnType<typeof termRepository>;
