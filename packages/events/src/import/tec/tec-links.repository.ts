import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.ts';
import type { TecKind } from './tec-error.ts';

/** What a link points to: a post or term of an imported kind, or a user (the source's authors). */
export type TecLinkKind = TecKind | 'users';

/** Ids per query: well under both stores' bound-parameter limits (4 per row written). */
const CHUNK = 500;

/**
 * The key of a source in `tec_links` (migration 018): its API root without the scheme, so a site that moved from
 * http to https is the same source. `tecApiRoot` already lower-cased the host and dropped a default port.
 * @example linkSource('https://example.com/wp-json/tribe/events/v1') // 'example.com/wp-json/tribe/events/v1'
 */
export const linkSource = (api: string): string => api.replace(/^https?:\/\//, '');

/** Which post or term each item of a source was imported as (README, "Import from a site running the plugin"). */
export function tecLinksRepository(db: Kysely<Database>) {
  /** Source id → local id of the linked items of one kind of `source` among `sourceIds`. */
  async function find(source: string, kind: TecLinkKind, sourceIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (let at = 0; at < sourceIds.length; at += CHUNK) {
      const rows = await db
        .selectFrom('tec_links')
        .select(['source_id', 'local_id'])
        .where('source', '=', source)
        .where('kind', '=', kind)
        .where('source_id', 'in', sourceIds.slice(at, at + CHUNK))
        .execute();
      for (const r of rows) out.set(r.source_id, r.local_id);
    }
    return out;
  }
  return {
    find,

    /** Those of `localIds` linked by an import (of `source` only, when given): the slug rule does not take them. */
    async linked(kind: TecLinkKind, localIds: readonly number[], source?: string): Promise<Set<number>> {
      const out = new Set<number>();
      for (let at = 0; at < localIds.length; at += CHUNK) {
        let q = db
          .selectFrom('tec_links')
          .select('local_id')
          .where('kind', '=', kind)
          .where('local_id', 'in', localIds.slice(at, at + CHUNK));
        if (source !== undefined) q = q.where('source', '=', source);
        const rows = await q.execute();
        for (const r of rows) out.add(r.local_id);
      }
      return out;
    },

    /** Records (or moves) the links of one kind, in the import's transaction; a link as stored is not written again. */
    async save(source: string, kind: TecLinkKind, links: ReadonlyMap<number, number>): Promise<void> {
      const known = await find(source, kind, [...links.keys()]);
      const rows = [...links]
        .filter(([source_id, local_id]) => known.get(source_id) !== local_id)
        .map(([source_id, local_id]) => ({ source, kind, source_id, local_id }));
      for (let at = 0; at < rows.length; at += CHUNK)
        await db
          .insertInto('tec_links')
          .values(rows.slice(at, at + CHUNK))
          .onConflict((oc) =>
            oc
              .columns(['source', 'kind', 'source_id'])
              .doUpdateSet((eb) => ({ local_id: eb.ref('excluded.local_id') })),
          )
          .execute();
    },
  };
}

export type TecLinksRepository = ReturnType<typeof tecLinksRepository>;
