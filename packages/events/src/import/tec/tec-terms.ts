import type { Kysely } from 'kysely';
import type { Database, Taxonomy } from '../../db/index.ts';
import { ApiError } from '../../http/errors.ts';
import type { Services } from '../../services.ts';
import { reasonOf } from '../csv/csv-import.ts';
import { claimNextId } from './keep-ids.ts';
import { describe, refusal, TecImportError, type KindCounts, type TecKind } from './tec-error.ts';
import type { TecItem } from './tec-items.ts';
import { termParams, type IdMap } from './tec-params.ts';

const TAXONOMY: Record<'categories' | 'tags', Taxonomy> = { categories: 'tribe_events_cat', tags: 'post_tag' };

/** Categories and tags: parents before children where ids allow, a parent with a higher id linked after. */
export class TermWrites {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly s: Services,
    private readonly keepIds: boolean,
    private readonly map: (kind: TecKind) => IdMap,
    private readonly created: (kind: TecKind, item: TecItem, id: number) => void,
    private readonly counts: Record<TecKind, KindCounts>,
    private readonly ids: Record<TecKind, Map<number, number>>,
  ) {}

  async write(terms: ReadonlyArray<{ kind: 'categories' | 'tags'; item: TecItem }>): Promise<void> {
    const later: Array<(typeof terms)[number]> = [];
    for (const { kind, item } of [...terms].sort((a, b) => a.item.id - b.item.id)) {
      const taxonomy = TAXONOMY[kind];
      const w = termParams(item, this.map(kind));
      if (w.name.trim() === '') throw new TecImportError('bad_items', `${describe(kind, item)}: the name is empty`);
      const { items: found } = await this.s.terms.list(taxonomy, {
        page: 1,
        perPage: 1,
        order: 'asc',
        orderby: 'id',
        hideEmpty: false,
        slug: item.slug,
      });
      const stored = found[0];
      if (typeof item.json.parent === 'number' && item.json.parent > 0 && w.parent === 0) later.push({ kind, item });
      const wrap = (err: unknown) => {
        throw err instanceof ApiError ? refusal(kind, item, reasonOf(err)) : err;
      };
      if (stored === undefined) {
        if (this.keepIds) await claimNextId(this.db, 'terms', item.id);
        const t = await this.s.terms.create(taxonomy, { ...w, slug: item.slug }).catch(wrap);
        this.created(kind, item, t!.id);
        continue;
      }
      this.ids[kind].set(item.id, stored.id);
      if (stored.name === w.name && stored.description === w.description && stored.parent === w.parent) {
        this.counts[kind].unchanged++;
        continue;
      }
      await this.s.terms.update(taxonomy, stored.id, w).catch(wrap);
      this.counts[kind].updated++;
    }
    for (const { kind, item } of later) {
      const parent = this.map(kind)(item.json.parent as number) ?? 0;
      await this.s.terms.update(TAXONOMY[kind], this.ids[kind].get(item.id)!, { parent });
    }
  }
}
