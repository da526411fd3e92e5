import type { Kysely } from 'kysely';
import type { Database, PostsTable } from '../../db/index.ts';
import type { CsvImportType } from './columns.ts';

const POST_TYPE: Record<CsvImportType, PostsTable['type']> = {
  events: 'tribe_events',
  venues: 'tribe_venue',
  organizers: 'tribe_organizer',
};
/** Starts per query: well under both stores' bound-parameter limits. */
const CHUNK = 500;

/** The re-import key as text: the name in lower case (Unicode-aware, so compared here rather than in SQL) and the start. */
export const keyText = (name: string, start = ''): string => `${name.toLowerCase()}\u0000${start}`;

/** Reads for the re-import key: posts not in the trash with the same name (and, for events, the same local start). */
export function importRepository(db: Kysely<Database>) {
  return {
    /** The keys of stored events starting at any of `starts`: one indexed query per 500 starts, not one per row. */
    async eventKeys(starts: readonly string[]): Promise<Set<string>> {
      const out = new Set<string>();
      const distinct = [...new Set(starts)];
      for (let i = 0; i < distinct.length; i += CHUNK) {
        const rows = await db
          .selectFrom('events')
          .innerJoin('posts', 'posts.id', 'events.post_id')
          .select(['posts.title', 'events.start_local'])
          .where('events.start_local', 'in', distinct.slice(i, i + CHUNK))
          .where('posts.type', '=', 'tribe_events')
          .where('posts.status', '!=', 'trash')
          .execute();
        for (const r of rows) out.add(keyText(r.title, r.start_local));
      }
      return out;
    },
    /** The keys of every stored venue or organizer (a site has thousands at most). */
    async linkedKeys(type: Exclude<CsvImportType, 'events'>): Promise<Set<string>> {
      const rows = await db
        .selectFrom('posts')
        .select('title')
        .where('type', '=', POST_TYPE[type])
        .where('status', '!=', 'trash')
        .execute();
      return new Set(rows.map((r) => keyText(r.title)));
    },
  };
}
