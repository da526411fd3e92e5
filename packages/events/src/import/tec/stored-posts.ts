import type { Kysely } from 'kysely';
import type { Database, PostType } from '../../db/index.ts';
import type { TecItem } from './tec-items.ts';
import type { TecLinksRepository } from './tec-links.repository.ts';

export const POST_TYPES = { venues: 'tribe_venue', organizers: 'tribe_organizer', events: 'tribe_events' } as const;
export type PostKind = keyof typeof POST_TYPES;

/** Slugs or ids per query: well under both stores' bound-parameter limits. */
const CHUNK = 500;

/** The posts an earlier import wrote for the items, by kind and source id. */
export interface StoredPosts {
  readonly ids: Record<PostKind, Map<number, number>>;
  /** Items whose linked post was deleted or trashed here: created again. */
  readonly deletedHere: number;
}

const chunks = <T>(xs: readonly T[]): T[][] =>
  Array.from({ length: Math.ceil(xs.length / CHUNK) }, (_, i) => xs.slice(i * CHUNK, (i + 1) * CHUNK));

/**
 * The stored posts the items were imported as, by kind and source id: first through `tec_links` (the post an import
 * of this source linked, if it is still there and not in the trash; if not, none); for an item never linked, the post with
 * the item's slug, or for a draft (the plugin answers drafts with an empty slug) the post under its id with its
 * title, as an import into an empty store leaves it. The slug rule never takes a post linked to another item (of any
 * source). A few queries per 500 items instead of one per item.
 */
export async function storedPostIds(
  db: Kysely<Database>,
  links: TecLinksRepository,
  source: string,
  posts: ReadonlyArray<{ kind: PostKind; item: TecItem }>,
): Promise<StoredPosts> {
  const ids = {
    venues: new Map<number, number>(),
    organizers: new Map<number, number>(),
    events: new Map<number, number>(),
  };
  let deletedHere = 0;
  for (const kind of Object.keys(POST_TYPES) as PostKind[]) {
    const items = posts.filter((p) => p.kind === kind).map((p) => p.item);
    const stored = () =>
      db
        .selectFrom('posts')
        .select(['id', 'slug', 'title'])
        .where('type', '=', POST_TYPES[kind])
        .where('status', '!=', 'trash');
    const linked = await links.find(
      source,
      kind,
      items.map((i) => i.id),
    );
    const alive = new Set<number>();
    for (const part of chunks([...linked.values()]))
      for (const r of await stored().where('id', 'in', part).execute()) alive.add(r.id);
    const unlinked: TecItem[] = [];
    for (const i of items) {
      const local = linked.get(i.id);
      // A linked post deleted here is created again, never matched by slug: its slug may be another item's now.
      if (local === undefined) unlinked.push(i);
      else if (alive.has(local)) ids[kind].set(i.id, local);
      else deletedHere++;
    }
    /** Local post ids the slug rule found, less those linked to another item. */
    const free = async (found: ReadonlyArray<{ id: number }>) =>
      links.linked(
        kind,
        found.map((r) => r.id),
      );
    for (const part of chunks(unlinked.filter((i) => i.slug !== ''))) {
      const rows = await stored()
        .where(
          'slug',
          'in',
          part.map((i) => i.slug),
        )
        .orderBy('id')
        .execute();
      const taken = await free(rows);
      const bySlug = new Map<string, number>();
      for (const r of rows) if (!taken.has(r.id) && !bySlug.has(r.slug)) bySlug.set(r.slug, r.id);
      for (const i of part) if (bySlug.has(i.slug)) ids[kind].set(i.id, bySlug.get(i.slug)!);
    }
    const nameField = kind === 'events' ? 'title' : kind === 'venues' ? 'venue' : 'organizer';
    for (const part of chunks(unlinked.filter((i) => i.slug === ''))) {
      const rows = await stored()
        .where(
          'id',
          'in',
          part.map((i) => i.id),
        )
        .execute();
      const taken = await free(rows);
      const titles = new Map(rows.filter((r) => !taken.has(r.id)).map((r) => [r.id, r.title]));
      for (const i of part) if (titles.get(i.id) === String(i.json[nameField])) ids[kind].set(i.id, i.id);
    }
  }
  return { ids, deletedHere };
}

/** Whether no post of `type` but `exceptId` holds `slug` (a trashed one holds `slug__trashed`, not it). */
export async function slugFree(db: Kysely<Database>, type: PostType, slug: string, exceptId: number): Promise<boolean> {
  const row = await db
    .selectFrom('posts')
    .select('id')
    .where('type', '=', type)
    .where('slug', '=', slug)
    .where('id', '!=', exceptId)
    .executeTakeFirst();
  return row === undefined;
}
