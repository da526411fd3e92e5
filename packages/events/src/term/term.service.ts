import type { Kysely } from 'kysely';
import type { Database, Taxonomy } from '../db/index.ts';
import { ApiError } from '../http/errors.ts';
import { sanitizeTitle, nextFreeSlug, writeTransaction, type WriteGeneration } from '../post/index.ts';
import { byName, termRepository, type TermWithCount } from './term.repository.ts';

export interface TermWrite { name?: string; description?: string; slug?: string; parent?: number }

export interface TermListQuery {
  page: number; perPage: number; search?: string; include?: number[]; exclude?: number[]; order: 'asc' | 'desc';
  orderby: string; hideEmpty: boolean; parent?: number; eventId?: number; slug?: string;
}

const SORTERS: Record<string, (a: TermWithCount, b: TermWithCount) => number> = {
  name: byName,
  slug: (a, b) => a.slug.localeCompare(b.slug) || a.id - b.id,
  id: (a, b) => a.id - b.id,
  description: (a, b) => a.description.localeCompare(b.description) || a.id - b.id,
  count: (a, b) => a.count - b.count || a.id - b.id,
  parent: (a, b) => a.parent - b.parent || a.id - b.id,
};
SORTERS.term_id = SORTERS.id!;
SORTERS.term_group = SORTERS.id!;
SORTERS.none = SORTERS.id!;
SORTERS.term_order = SORTERS.id!;

/** Categories and tags: the rules of the core terms controller as the plugin uses them. */
export function termService(db: Kysely<Database>, generation: WriteGeneration) {
  const repo = termRepository(db);

  const uniqueSlug = async (r: ReturnType<typeof termRepository>, taxonomy: Taxonomy, base: string, exceptId?: number) =>
    nextFreeSlug(base, await r.slugsLike(taxonomy, base, exceptId));

  return {
    repo,
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
        all.sort(SORTERS[q.orderby] ?? SORTERS.name!);
        if (q.order === 'desc') all.reverse();
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
          throw new ApiError('term_exists', parent ? 'A term with the name provided already exists with this parent.'
            : 'A term with the name provided already exists in this taxonomy.', { term_id: dup.id });
        }
        const slug = await uniqueSlug(r, taxonomy, sanitizeTitle(w.slug ?? w.name) || 'term');
        return r.insert({ taxonomy, name: w.name, slug, description: w.description ?? '', parent });
      });
      generation.bump();
      return (await repo.findById(taxonomy, id))!;
    },

    async update(taxonomy: Taxonomy, id: number, w: TermWrite): Promise<TermWithCount> {
      await writeTransaction(db, async (trx) => {
        const r = termRepository(trx);
        const current = (await r.findById(taxonomy, id))!;
        const patch: TermWrite = {};
        if (w.name !== undefined && w.name !== current.name) {
          const dup = await r.findByName(taxonomy, w.parent ?? current.parent, w.name);
          if (dup && dup.id !== id) throw new ApiError('term_exists', 'A term with the name provided already exists with this parent.', { term_id: dup.id });
          patch.name = w.name;
        }
        if (w.description !== undefined) patch.description = w.description;
        if (w.parent !== undefined) {
          // wp_check_term_hierarchy_for_loops: a term made its own parent moves to the top level (the plugin answers 200).
          patch.parent = w.parent === id ? 0 : w.parent;
        }
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
    async resolveForWrite(trx: Kysely<Database>, taxonomy: Taxonomy, refs: readonly (string | number)[],
      newName: (name: string) => string = (name) => name): Promise<number[]> {
      const r = termRepository(trx);
      const ids: number[] = [];
      for (const ref of refs) {
        const text = String(ref).trim();
        if (text === '') continue;
        if (/^\d+$/.test(text)) {
          if (await r.exists(taxonomy, Number(text))) ids.push(Number(text));
          continue;
        }
        await r.lockName(taxonomy, text);
        const found = await r.findBySlugOrName(taxonomy, text);
        if (found) { ids.push(found.id); continue; }
        const name = newName(text).trim();
        if (name === '') continue;
        const slug = nextFreeSlug(sanitizeTitle(name) || 'term', await r.slugsLike(taxonomy, sanitizeTitle(name) || 'term'));
        ids.push(await r.insert({ taxonomy, name, slug, description: '', parent: 0 }));
      }
      return ids;
    },
  };
}

export type TermService = ReturnType<typeof termService>;
