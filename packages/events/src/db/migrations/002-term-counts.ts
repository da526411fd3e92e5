import type { Migration } from 'kysely';
import { sql } from 'kysely';

/**
 * Schema version 2: a stored published-event count per term, as WordPress keeps `term_taxonomy.count`. Counting on
 * every read scanned all term links; writes now recount only the terms they touch.
 */
export const termCountsMigration: Migration = {
  async up(db) {
    await db.schema
      .alterTable('terms')
      .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update terms set count = (select count(*) from event_terms et inner join posts p on p.id = et.event_id
      where et.term_id = terms.id and p.status = 'publish')`.execute(db);
  },
};
