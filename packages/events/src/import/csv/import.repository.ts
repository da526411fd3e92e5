import { sql, type Kysely } from 'kysely';
import type { Database, PostsTable } from '../../db/index.ts';
import type { CsvImportType } from './columns.ts';

const POST_TYPE: Record<CsvImportType, PostsTable['type']> = { events: 'tribe_events', venues: 'tribe_venue', organizers: 'tribe_organizer' };

/** Reads for the re-import key: a post that is not in the trash with the same name (and, for events, the same start). */
export function importRepository(db: Kysely<Database>) {
  return {
    /** Whether an event named `title` (any case) starts at the local wall time `startLocal`. */
    async eventExists(title: string, startLocal: string): Promise<boolean> {
      const row = await db.selectFrom('posts').innerJoin('events', 'events.post_id', 'posts.id').select('posts.id')
        .where('posts.type', '=', 'tribe_events').where('posts.status', '!=', 'trash')
        .where('events.start_local', '=', startLocal).where(sql`lower(posts.title)`, '=', title.toLowerCase())
        .limit(1).executeTakeFirst();
      return row !== undefined;
    },
    /** Whether a venue or organizer with this name (any case) exists. */
    async linkedExists(type: Exclude<CsvImportType, 'events'>, name: string): Promise<boolean> {
      const row = await db.selectFrom('posts').select('id').where('type', '=', POST_TYPE[type]).where('status', '!=', 'trash')
        .where(sql`lower(title)`, '=', name.toLowerCase()).limit(1).executeTakeFirst();
      return row !== undefined;
    },
  };
}
