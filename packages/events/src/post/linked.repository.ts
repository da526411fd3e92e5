import { sql, type Expression, type Insertable, type Kysely, type SqlBool, type Updateable } from 'kysely';
import { reusableByIds, type Database, type OrganizersTable, type PostType, type VenuesTable } from '../db/index.ts';
import type { PostRow } from './post.repository.ts';
import type { Visibility } from './listing.ts';

/** A venue or organizer: the post row plus its detail columns. */
export type LinkedRow = PostRow & Record<string, string | number | null>;

/** The detail table of a linked kind, and the columns of the two together (either table's rows fit). */
export type LinkedDetailTable = 'venues' | 'organizers';
type DetailColumn = keyof Database['venues'] | keyof Database['organizers'];
/** The detail row as the shared queries see it: any column of either table (a venue has no email, and so on). */
type LinkedDetail = { post_id: number } & { [C in Exclude<DetailColumn, 'post_id'>]: string | number | null };

export interface LinkedTable {
  readonly type: PostType;
  readonly table: LinkedDetailTable;
  /** Detail columns searched besides title, content and excerpt. */
  readonly searchColumns: readonly DetailColumn[];
}

export interface LinkedListFilter {
  visibility: Visibility;
  tokens?: string[];
  /** Match the tokens in the title and content only, not in the detail columns (`tec/v1`'s search). */
  titleOnly?: true;
  eventId?: number;
  hasEvents?: boolean;
  /** Linked to an event starting at or after this UTC time that the caller may see. */
  upcomingFrom?: { utc: string; visibility: Visibility };
  limit: number;
  offset: number;
}

const escapeLike = (s: string) => s.replace(/[%_\\]/g, (c) => `\\${c}`);
const NOT_LIVE = ['draft', 'pending', 'trash', 'auto-draft'];

/**
 * Whether the post under `alias` may be seen: its status is one the caller sees, and with an owner, only published
 * posts or the owner's own. An expression rather than a builder step, so one rule serves the main query and the
 * subqueries over other aliases, whose builders have different types.
 */
function visibleTo(alias: 'posts' | 'lp', v: Visibility): Expression<SqlBool> {
  const status = sql.ref(`${alias}.status`);
  const seen = sql<SqlBool>`${status} in (${sql.join(v.statuses)})`;
  if (v.ownerId === undefined) return seen;
  return sql<SqlBool>`(${seen} and (${status} = 'publish' or ${sql.ref(`${alias}.author`)} = ${v.ownerId}))`;
}

/**
 * SQL shared by venues and organizers. The detail table is known only at run time, so it is joined as a typed table
 * expression under the alias `d` (the columns of either table); everything else is checked against the schema.
 */
export function linkedRepository(db: Kysely<Database>, t: LinkedTable) {
  const detail = () => sql<LinkedDetail>`${sql.table(t.table)}`.as('d');
  const base = () =>
    db
      .selectFrom('posts')
      .innerJoin(detail(), (j) => j.onRef('d.post_id', '=', 'posts.id'))
      .selectAll('posts')
      .selectAll('d')
      .where('posts.type', '=', t.type);
  /** Posts linked to an event (alias `lp`), as `le.post_id` rows of the link table for the linked post `ref`. */
  const linkedEvents = (ref: Expression<number>) =>
    t.table === 'venues'
      ? db.selectFrom('events as le').select('le.post_id as event_id').where('le.venue_id', '=', ref)
      : db.selectFrom('event_organizers as le').select('le.event_id').where('le.organizer_id', '=', ref);
  const idsLinkedTo = (eventId: number) =>
    t.table === 'venues'
      ? db.selectFrom('events').select('venue_id as id').where('post_id', '=', eventId)
      : db.selectFrom('event_organizers').select('organizer_id as id').where('event_id', '=', eventId);
  const filtered = (f: LinkedListFilter) => {
    let q = base().where(visibleTo('posts', f.visibility));
    if (f.tokens && f.tokens.length > 0) {
      const tokens = f.tokens;
      const cols = [
        sql.ref('posts.title'),
        sql.ref('posts.content'),
        sql.ref('posts.excerpt'),
        ...(f.titleOnly ? [] : t.searchColumns.map((c) => sql.ref(`d.${c}`))),
      ];
      const like = (col: Expression<unknown>, tok: string) =>
        sql<SqlBool>`lower(${col}) like ${`%${escapeLike(tok.toLowerCase())}%`} escape '\\'`;
      q = q.where((eb) => eb.or(cols.map((col) => eb.and(tokens.map((tok) => like(col, tok))))));
    }
    if (f.eventId !== undefined) q = q.where('posts.id', 'in', idsLinkedTo(f.eventId));
    if (f.hasEvents !== undefined) {
      const want = f.hasEvents;
      q = q.where((eb) => {
        const live = eb.exists(
          db
            .selectFrom('posts as lp')
            .select('lp.id')
            .where('lp.id', 'in', linkedEvents(sql.ref('posts.id')))
            .where('lp.status', 'not in', NOT_LIVE),
        );
        return want ? live : eb.not(live);
      });
    }
    if (f.upcomingFrom) {
      const { utc, visibility } = f.upcomingFrom;
      q = q.where((eb) =>
        eb.exists(
          db
            .selectFrom('posts as lp')
            .innerJoin('events as ue', 'ue.post_id', 'lp.id')
            .select('lp.id')
            .where('lp.id', 'in', linkedEvents(sql.ref('posts.id')))
            .where('ue.start_utc', '>=', utc)
            .where(visibleTo('lp', visibility)),
        ),
      );
    }
    return q;
  };
  const byIds = reusableByIds<LinkedRow>(db, (ids) => base().where('posts.id', 'in', ids));
  return {
    findById: (id: number) => base().where('posts.id', '=', id).executeTakeFirst() as Promise<LinkedRow | undefined>,
    findBySlug: (slug: string) =>
      base().where('posts.slug', '=', slug).executeTakeFirst() as Promise<LinkedRow | undefined>,
    async findMany(ids: readonly number[]): Promise<Map<number, LinkedRow>> {
      if (ids.length === 0) return new Map();
      const rows = await byIds([...new Set(ids)]);
      return new Map(rows.map((r) => [r.id, r]));
    },
    async list(f: LinkedListFilter): Promise<{ rows: LinkedRow[]; total: number }> {
      const total = Number(
        (
          await filtered(f)
            .clearSelect()
            .select(sql<number>`count(*)`.as('c'))
            .executeTakeFirst()
        )?.c ?? 0,
      );
      const rows =
        total === 0
          ? []
          : ((await filtered(f)
              .orderBy('posts.date_local', 'desc')
              .orderBy('posts.id', 'desc')
              .limit(f.limit)
              .offset(f.offset)
              .execute()) as LinkedRow[]);
      return { rows, total };
    },
    /** A non-trashed record with this name (case-insensitive) and, when given, this description (§6.4). */
    async findDuplicate(name: string, description: string | undefined): Promise<LinkedRow | undefined> {
      let q = base()
        .where('posts.status', '!=', 'trash')
        .where(sql`lower(posts.title)`, '=', name.toLowerCase());
      if (description !== undefined) q = q.where(sql`lower(posts.content)`, '=', description.toLowerCase());
      return q.orderBy('posts.id').executeTakeFirst() as Promise<LinkedRow | undefined>;
    },
    // The details were built column by column by the kind's `detailsFrom` (venue.kind.ts, organizer.kind.ts), which
    // the schema's column types do not reach: they are handed to the kind's own table here.
    async insertDetails(id: number, details: Record<string, unknown>): Promise<void> {
      if (t.table === 'venues')
        await db
          .insertInto('venues')
          .values({ ...details, post_id: id } as Insertable<VenuesTable>)
          .execute();
      else
        await db
          .insertInto('organizers')
          .values({ ...details, post_id: id } as Insertable<OrganizersTable>)
          .execute();
    },
    async updateDetails(id: number, details: Record<string, unknown>): Promise<void> {
      if (Object.keys(details).length === 0) return;
      if (t.table === 'venues')
        await db
          .updateTable('venues')
          .set(details as Updateable<VenuesTable>)
          .where('post_id', '=', id)
          .execute();
      else
        await db
          .updateTable('organizers')
          .set(details as Updateable<OrganizersTable>)
          .where('post_id', '=', id)
          .execute();
    },
    /** Trashing a venue or organizer unlinks it from every event. */
    async unlinkFromEvents(id: number): Promise<void> {
      if (t.table === 'venues')
        await db.updateTable('events').set({ venue_id: null }).where('venue_id', '=', id).execute();
      else await db.deleteFrom('event_organizers').where('organizer_id', '=', id).execute();
    },
  };
}

export type LinkedRepository = ReturnType<typeof linkedRepository>;
