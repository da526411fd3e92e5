import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/db/index.ts';
import { formatWall, utcToWall } from '../src/time/index.ts';

export interface SeedCounts {
  events: number;
  venues: number;
  organizers: number;
  categories: number;
  tags: number;
}

const fmt = (ms: number) => formatWall(utcToWall(ms, 'UTC'));
const rand = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

/** Bulk-inserts a deterministic calendar: events spread over a year either side of `now`, each with links. */
export async function seed(
  db: Kysely<Database>,
  authorId: number,
  now: number,
  n: SeedCounts,
): Promise<{ eventIds: number[] }> {
  const r = rand(42);
  const stamp = fmt(now);
  const post = (type: 'tribe_events' | 'tribe_venue' | 'tribe_organizer', title: string, slug: string) => ({
    type,
    slug,
    title,
    content: `${title} description with some words about music, art and food.`,
    excerpt: '',
    status: 'publish',
    author: authorId,
    password: '',
    date_local: stamp,
    date_gmt: stamp,
    modified_local: stamp,
    modified_gmt: stamp,
    menu_order: 0,
  });
  const insertPosts = async (rows: ReturnType<typeof post>[]) => {
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const got = await db
        .insertInto('posts')
        .values(rows.slice(i, i + 500))
        .returning('id')
        .execute();
      ids.push(...got.map((g) => g.id));
    }
    return ids;
  };
  const chunks = async <T>(rows: T[], fn: (chunk: T[]) => Promise<unknown>) => {
    for (let i = 0; i < rows.length; i += 500) await fn(rows.slice(i, i + 500));
  };

  const venueIds = await insertPosts(
    Array.from({ length: n.venues }, (_, i) => post('tribe_venue', `Venue ${i}`, `venue-${i}`)),
  );
  await chunks(
    venueIds.map((id, i) => ({
      post_id: id,
      address: `${i} Main Street`,
      city: ['London', 'Paris', 'Rome', 'Berlin'][i % 4]!,
      country: 'UK',
      province: '',
      state: '',
      zip: String(10000 + i),
      phone: `555-${i}`,
      website: '',
      stateprovince: '',
      show_map: 1,
      show_map_link: 1,
      geo_lat: 40 + r() * 15,
      geo_lng: -5 + r() * 20,
    })),
    (c) => db.insertInto('venues').values(c).execute(),
  );
  const organizerIds = await insertPosts(
    Array.from({ length: n.organizers }, (_, i) => post('tribe_organizer', `Organizer ${i}`, `organizer-${i}`)),
  );
  await chunks(
    organizerIds.map((id, i) => ({
      post_id: id,
      phone: `555-${i}`,
      website: `http://org${i}.test`,
      email: `org${i}@example.test`,
    })),
    (c) => db.insertInto('organizers').values(c).execute(),
  );
  const catIds = (
    await db
      .insertInto('terms')
      .values(
        Array.from({ length: n.categories }, (_, i) => ({
          taxonomy: 'tribe_events_cat' as const,
          name: `Category ${i}`,
          slug: `category-${i}`,
          description: '',
          parent: 0,
        })),
      )
      .returning('id')
      .execute()
  ).map((x) => x.id);
  const tagIds = (
    await db
      .insertInto('terms')
      .values(
        Array.from({ length: n.tags }, (_, i) => ({
          taxonomy: 'post_tag' as const,
          name: `Tag ${i}`,
          slug: `tag-${i}`,
          description: '',
          parent: 0,
        })),
      )
      .returning('id')
      .execute()
  ).map((x) => x.id);

  const eventIds = await insertPosts(
    Array.from({ length: n.events }, (_, i) => post('tribe_events', `Event ${i}`, `event-${i}`)),
  );
  const year = 365 * 86_400_000;
  const events = eventIds.map((id) => {
    const start = Math.floor((now - year + r() * 2 * year) / 1_800_000) * 1_800_000;
    const end = start + (1 + Math.floor(r() * 4)) * 3_600_000;
    return {
      post_id: id,
      start_local: fmt(start),
      end_local: fmt(end),
      start_utc: fmt(start),
      end_utc: fmt(end),
      timezone: 'UTC',
      all_day: 0,
      cost: JSON.stringify([String(Math.floor(r() * 50))]),
      currency_symbol: '$',
      currency_position: 'prefix',
      website: null,
      show_map: 1,
      show_map_link: 1,
      hide_from_listings: 0,
      featured: r() < 0.1 ? 1 : 0,
      venue_id: venueIds[Math.floor(r() * venueIds.length)]!,
      parent_id: null,
    };
  });
  await chunks(events, (c) => db.insertInto('events').values(c).execute());
  await chunks(
    eventIds.flatMap((id) => {
      const a = catIds[Math.floor(r() * catIds.length)]!;
      const b = tagIds[Math.floor(r() * tagIds.length)]!;
      const c = tagIds[Math.floor(r() * tagIds.length)]!;
      return [...new Set([a, b, c])].map((term_id) => ({ event_id: id, term_id }));
    }),
    (c) => db.insertInto('event_terms').values(c).execute(),
  );
  await chunks(
    eventIds.map((id) => ({
      event_id: id,
      organizer_id: organizerIds[Math.floor(r() * organizerIds.length)]!,
      position: 0,
    })),
    (c) => db.insertInto('event_organizers').values(c).execute(),
  );
  await sql`update terms set count = (select count(*) from event_terms et inner join posts p on p.id = et.event_id
    where et.term_id = terms.id and p.status = 'publish')`.execute(db);
  return { eventIds };
}
