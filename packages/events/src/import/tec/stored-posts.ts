import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.ts';
import type { TecItem } from './tec-items.ts';

export const POST_TYPES = { venues: 'tribe_venue', organizers: 'tribe_organizer', events: 'tribe_events' } as const;
export type PostKind = keyof typeof POST_TYPES;

/** Slugs or ids per query: well under both stores' bound-parameter limits. */
const CHUNK = 500;

/**
 * The stored posts the items were imported as, by kind and source id: the post with the item's slug, or for a draft
 * (the plugin answers drafts with an empty slug) the post under its id with its title, as an import into an empty
 * store leaves it. A few queries per 500 items instead of one per item.
 */
export async function storedPostIds(
  db: Kysely<Database>,
  posts: ReadonlyArray<{ kind: PostKind; item: TecItem }>,
): Promise<Record<PostKind, Map<number, number>>> {
  const out = {
    venues: new Map<number, number>(),
    organizers: new Map<number, number>(),
    events: new Map<number, number>(),
  };
  for (const kind of Object.keys(POST_TYPES) as PostKind[]) {
    const items = posts.filter((p) => p.kind === kind).map((p) => p.item);
    const stored = db
      .selectFrom('posts')
      .select(['id', 'slug', 'title'])
      .where('type', '=', POST_TYPES[kind])
      .where('status', '!=', 'trash');
    const slugged = items.filter((i) => i.slug !== '');
    for (let at = 0; at < slugged.length; at += CHUNK) {
      const part = slugged.slice(at, at + CHUNK);
      const bySlug = new Map<string, number>();
      for (const r of await stored
        .where(
          'slug',
          'in',
          part.map((i) => i.slug),
        )
        .orderBy('id')
        .execute())
        if (!bySlug.has(r.slug)) bySlug.set(r.slug, r.id);
      for (const i of part) if (bySlug.has(i.slug)) out[kind].set(i.id, bySlug.get(i.slug)!);
    }
    const drafts = items.filter((i) => i.slug === '');
    const nameField = kind === 'events' ? 'title' : kind === 'venues' ? 'venue' : 'organizer';
    for (let at = 0; at < drafts.length; at += CHUNK) {
      const part = drafts.slice(at, at + CHUNK);
      const titles = new Map(
        (
          await stored
            .where(
              'id',
              'in',
              part.map((i) => i.id),
            )
            .execute()
        ).map((r) => [r.id, r.title]),
      );
      for (const i of part) if (titles.get(i.id) === String(i.json[nameField])) out[kind].set(i.id, i.id);
    }
  }
  return out;
}
