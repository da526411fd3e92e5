import type { Kysely } from 'kysely';
import type { Database, Taxonomy } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';
import { isIdText, toRowId } from '../http/row-id.ts';
import { sanitizeTitle, nextFreeSlug, writeTransaction, type WriteGeneration } from '../post/index.ts';
import { termRepository, type TermWithCount } from './term.repository.ts';

export interface TermWrite {
  name?: string;
  description?: string;
  slug?: string;
  parent?: number;
}

export interface TermListQuery {
  page: number;
  perPage: number;
  search?: string;
  include?: number[];
  exclude?: number[];
  order: 'asc' | 'desc';
  orderby: string;
  hideEmpty: boolean;
  parent?: number;
  eventId?: number;
  slug?: string;
}

// Primary orders; ties follow the order MySQL gave them on the recorded site (newest first among equal names, oldest
// first among equal counts and the rest), whichever the direction.
const SORTERS: Record<string, (a: TermWithCount, b: TermWithCount) => number> = {
  name: (a, b) => {
    const x = a.name.toLowerCase();
    const y = b.name.toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  },
  slug: (a, b) => a.slug.localeCompare(b.slug),
  id: (a, b) => a.id - b.id,
  description: (a, b) => a.description.localeCompare(b.description),
  count: (a, b) => a.count - b.count,
  parent: (a, b) => a.parent - b.parent,
};
SORTERS.term_id = SORTERS.id!;
SORTERS.term_group = SORTERS.id!;
SORTERS.none = SORTERS.id!;
SORTERS.term_order = SORTERS.id!;
const nameTieNewestFirst = (a: TermWithCount, b: TermWithCount) => b.id - a.id;

/** Categories and tags: the rules of the core terms controller as the plugin uses them. */
export function termService(db: Kysely<Database>, generation: WriteGeneration) {
  const repo = termRepository(db);

  /**
   * `wp_unique_term_slug`: a taken slug of a child term gets its ancestors' slugs appended one by one
   * (`theatre-outdoors`), then a number.
   */
  const childSlug = async (r: ReturnType<typeof termRepository>, taxonomy: Taxonomy, base: string, parent: number) => {
    const taken = await r.slugsLike(taxonomy, base);
    if (!taken.has(base) || parent === 0) return nextFreeSlug(base, taken);
    const tree = await r.tree(taxonomy);
    let slug = base;
    for (let p = parent; p !== 0 && tree.has(p); p = tree.get(p)!.parent) {
      slug = `${slug}-${tree.get(p)!.slug}`;
      if (![...tree.values()].some((t) => t.slug === slug)) return slug;
    }
    return nextFreeSlug(slug, await r.slugsLike(taxonomy, slug));
  };

  return {
    repo,
    /** Slug and parent of every term of the taxonomy, for `formatTerm`. */
    tree: (taxonomy: Taxonomy) => repo.tree(taxonomy),
    get: (taxonomy: Taxonomy, id: number) => repo.findById(taxonomy, id),
    exists: (taxonomy: Taxonomy, id: number) => repo.exists(taxonomy, id),
    findRef: (taxonomy: Taxonomy, ref: string) => repo.findBySlugOrName(taxonomy, ref),

    async list(taxonomy: Taxonomy, q: TermListQuery): Promise<{ items: TermWithCount[]; total: number }> {
      let all = await repo.list(taxonomy, q);
      if (q.hideEmpty) all = all.filter((t) => t.count > 0);
      if (q.orderby === 'include' && q.include) {
        const pos = new Map(q.include.map((id, i) => [id, i]));
        all.sort((a, b) => pos.get(a.id)! - pos.get(b.id)!);
      } else {
        const primary = SORTERS[q.orderby] ?? SORTERS.name!;
        const sign = q.order === 'desc' ? -1 : 1;
        const tie = primary === SORTERS.name ? nameTieNewestFirst : SORTERS.id!;
        all.sort((a, b) => sign * primary(a, b) || tie(a, b));
      }
      return { items: all.slice((q.page - 1) * q.perPage, q.page * q.perPage), total: all.length };
    },

    async create(taxonomy: Taxonomy, w: Required<Pick<TermWrite, 'name'>> & TermWrite): Promise<TermWithCount> {
      const id = await writeTransaction(db, async (trx) => {
        const r = termRepository(trx);
        const parent = w.parent ?? 0;
        await r.lockName(taxonomy, w.name);
        const dup = await r.findByName(taxonomy, parent, w.name);
        if (dup) {
          throw new ApiError(
            'term_exists',
            parent
              ? 'A term with the name provided already exists with this parent.'
              : 'A term with the name provided already exists in this taxonomy.',
            { term_id: dup.id },
          );
        }
        const slug = await childSlug(r, taxonomy, sanitizeTitle(w.slug ?? w.name) || 'term', parent);
        return r.insert({ taxonomy, name: w.name, slug, description: w.description ?? '', parent });
      });
      generation.bump();
      return (await repo.findById(taxonomy, id))!;
    },

    async update(taxonomy: Taxonomy, id: number, w: TermWrite): Promise<TermWithCount> {
      await writeTransaction(db, async (trx) => {
        const r = termRepository(trx);
        const patch: TermWrite = {};
        // As wp_update_term: only slugs must stay unique; a name may repeat another term's.
        if (w.name !== undefined) patch.name = w.name;
        if (w.description !== undefined) patch.description = w.description;
        // wp_update_term ignores a term made its own parent (the plugin answers 200 with the parent unchanged).
        if (w.parent !== undefined && w.parent !== id) patch.parent = w.parent;
        if (w.slug !== undefined) {
          const slug = sanitizeTitle(w.slug) || 'term';
          if ((await r.slugsLike(taxonomy, slug, id)).has(slug)) {
            throw new ApiError('duplicate_term_slug', `The slug “${slug}” is already in use by another term.`);
          }
          patch.slug = slug;
        }
        await r.update(id, patch);
      });
      generation.bump();
      return (await repo.findById(taxonomy, id))!;
    },

    async remove(taxonomy: Taxonomy, id: number): Promise<TermWithCount> {
      const before = (await repo.findById(taxonomy, id))!;
      await writeTransaction(db, (trx) => termRepository(trx).remove(before));
      generation.bump();
      return before;
    },

    /**
     * Event-write term references: numeric → an existing term (unknown ids skipped), otherwise a slug or name,
     * created when missing (§4.5). Runs inside the event's transaction.
     */
    /** `newName` filters the name of a term created here (kses for writers without `unfiltered_html`). */
    async resolveForWrite(
      trx: Kysely<Database>,
      taxonomy: Taxonomy,
      refs: readonly (string | number)[],
      newName: (name: string) => string = (name) => name,
    ): Promise<number[]> {
      const r = termRepository(trx);
      const ids: number[] = [];
      for (const ref of refs) {
        const text = String(ref).trim();
        if (text === '') continue;
        if (isIdText(text)) {
          const id = toRowId(text)!;
          if (await r.exists(taxonomy, id)) ids.push(id);
          continue;
        }
        await r.lockName(taxonomy, text);
        const found = await r.findBySlugOrName(taxonomy, text);
        if (found) {
          ids.push(found.id);
          continue;
        }
        const name = newName(text).trim();
        if (name === '') continue;
        const slug = nextFreeSlug(
          sanitizeTitle(name) || 'term',
          await r.slugsLike(taxonomy, sanitizeTitle(name) || 'term'),
        );
        ids.push(await r.insert({ taxonomy, name, slug, description: '', parent: 0 }));
      }
      return ids;
    },
  };
}

export type TermService = ReturnType<typeof termService>;
