import type { Kysely } from 'kysely';
import type { Database, Taxonomy } from '../../db/index.ts';
import { ApiError } from '../../http/errors.ts';
import type { Services } from '../../services.ts';
import type { TermWithCount } from '../../term/index.ts';
import { reasonOf } from '../csv/csv-import.ts';
import { claimNextId } from './keep-ids.ts';
import { describe, refusal, TecImportError, type KindCounts, type TecKind } from './tec-error.ts';
import type { TecItem } from './tec-items.ts';
import type { TecLinksRepository } from './tec-links.repository.ts';
import { termParams, type IdMap } from './tec-params.ts';

const TAXONOMY: Record<'categories' | 'tags', Taxonomy> = { categories: 'tribe_events_cat', tags: 'post_tag' };

/** Where a term import reads and writes, and what it tells the import. */
export interface TermWritesDeps {
  readonly db: Kysely<Database>;
  readonly s: Services;
  readonly links: TecLinksRepository;
  /** The source's key in `tec_links`. */
  readonly source: string;
  readonly keepIds: boolean;
  readonly map: (kind: TecKind) => IdMap;
  readonly created: (kind: TecKind, item: TecItem, id: number) => void;
  readonly counts: Record<TecKind, KindCounts>;
  readonly ids: Record<TecKind, Map<number, number>>;
  /** Told of a term whose linked term was deleted here. */
  readonly deletedHere: () => void;
}

/** Categories and tags: parents before children where ids allow, a parent with a higher id linked after. */
export class TermWrites {
  constructor(private readonly d: TermWritesDeps) {}

  /**
   * The term an earlier import wrote for `item`: the linked one if it still exists, else the term with its slug,
   * unless another item of this source is linked to it. A term linked by another source's import is shared
   * (categories and tags are one vocabulary, and a second term of the same name and parent cannot be made).
   */
  private async storedTerm(kind: 'categories' | 'tags', item: TecItem, local: number | undefined) {
    const taxonomy = TAXONOMY[kind];
    if (local !== undefined) {
      const linked = await this.d.s.terms.get(taxonomy, local);
      if (linked !== undefined) return linked;
      this.d.deletedHere();
    }
    const { items: found } = await this.d.s.terms.list(taxonomy, {
      page: 1,
      perPage: 1,
      order: 'asc',
      orderby: 'id',
      hideEmpty: false,
      slug: item.slug,
    });
    const bySlug = found[0];
    if (bySlug === undefined) return undefined;
    return (await this.d.links.linked(kind, [bySlug.id], this.d.source)).has(bySlug.id) ? undefined : bySlug;
  }

  /** The source's slug if the stored term has another and no other term of its taxonomy holds it. */
  private async movedSlug(kind: 'categories' | 'tags', item: TecItem, stored: TermWithCount) {
    if (item.slug === '' || item.slug === stored.slug) return undefined;
    const taken = await this.d.s.terms.repo.slugsLike(TAXONOMY[kind], item.slug, stored.id);
    return taken.has(item.slug) ? undefined : item.slug;
  }

  async write(terms: ReadonlyArray<{ kind: 'categories' | 'tags'; item: TecItem }>): Promise<void> {
    const { s, counts, ids } = this.d;
    const linked = {
      categories: await this.d.links.find(
        this.d.source,
        'categories',
        terms.filter((t) => t.kind === 'categories').map((t) => t.item.id),
      ),
      tags: await this.d.links.find(
        this.d.source,
        'tags',
        terms.filter((t) => t.kind === 'tags').map((t) => t.item.id),
      ),
    };
    const later: Array<(typeof terms)[number]> = [];
    for (const { kind, item } of [...terms].sort((a, b) => a.item.id - b.item.id)) {
      const taxonomy = TAXONOMY[kind];
      const w = termParams(item, this.d.map(kind));
      if (w.name.trim() === '') throw new TecImportError('bad_items', `${describe(kind, item)}: the name is empty`);
      const stored = await this.storedTerm(kind, item, linked[kind].get(item.id));
      if (typeof item.json.parent === 'number' && item.json.parent > 0 && w.parent === 0) later.push({ kind, item });
      const wrap = (err: unknown) => {
        throw err instanceof ApiError ? refusal(kind, item, reasonOf(err)) : err;
      };
      if (stored === undefined) {
        if (this.d.keepIds) await claimNextId(this.d.db, 'terms', item.id);
        const t = await s.terms.create(taxonomy, { ...w, slug: item.slug }).catch(wrap);
        this.d.created(kind, item, t!.id);
        continue;
      }
      ids[kind].set(item.id, stored.id);
      const slug = await this.movedSlug(kind, item, stored);
      if (
        slug === undefined &&
        stored.name === w.name &&
        stored.description === w.description &&
        stored.parent === w.parent
      ) {
        counts[kind].unchanged++;
        continue;
      }
      await s.terms.update(taxonomy, stored.id, slug === undefined ? w : { ...w, slug }).catch(wrap);
      counts[kind].updated++;
    }
    for (const { kind, item } of later) {
      const parent = this.d.map(kind)(item.json.parent as number) ?? 0;
      await s.terms.update(TAXONOMY[kind], ids[kind].get(item.id)!, { parent });
    }
  }
}
