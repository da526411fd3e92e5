/* eslint-disable @typescript-eslint/no-explicit-any -- the detail table is chosen at run time, which Kysely's
   static table types cannot express; rows are typed again at the function boundaries. */
import { sql, type Kysely } from 'kysely';
import { reusableByIds, type Database, type PostType } from '../db/index.ts';
import type { PostRow } from './post.repository.ts';
import type { Visibility } from './listing.ts';

/** A venue or organizer: the post row plus its detail columns. */
export type LinkedRow = PostRow & Record<string, string | number | null>;

export interface LinkedTable {
  readonly type: PostType;
  readonly table: 'venues' | 'organizers';
  /** Detail columns searched besides title, content and excerpt. */
  readonly searchColumns: readonly string[];
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

/** SQL shared by venues and organizers. The table name varies, so queries go through an untyped handle. */
export function linkedRepository(typed: Kysely<Database>, t: LinkedTable) {
  const db = typed as unknown as Kysely<any>;
  const link = t.table === 'venues'
    ? { exists: (eb: any, ref: string) => eb.selectFrom('events as le').select('le.post_id').whereRef('le.venue_id', '=', ref) }
    : { exists: (eb: any, ref: string) => eb.selectFrom('event_organizers as le').select('le.event_id as post_id').whereRef('le.organizer_id', '=', ref) };
  const base = () => db.selectFrom('posts').innerJoin(`${t.table} as d`, 'd.post_id', 'posts.id').selectAll('posts').selectAll('d')
    .where('posts.type', '=', t.type);
  const visible = (q: any, v: Visibility, prefix = 'posts') => {
    q = q.where(`${prefix}.status`, 'in', v.statuses);
    if (v.ownerId !== undefined) {
      const owner = v.ownerId;
      q = q.where((eb: any) => eb.or([eb(`${prefix}.status`, '=', 'publish'), eb(`${prefix}.author`, '=', owner)]));
    }
    return q;
  };
  const filtered = (f: LinkedListFilter): any => {
    let q = visible(base(), f.visibility);
    if (f.tokens && f.tokens.length > 0) {
      const tokens = f.tokens;
      const cols = ['posts.title', 'posts.content', 'posts.excerpt', ...(f.titleOnly ? [] : t.searchColumns.map((c) => `d.${c}`))];
      q = q.where((eb: any) => eb.or(cols.map((col) => eb.and(tokens.map((tok) =>
        eb(eb.fn('lower', [col]), 'like', sql`${`%${escapeLike(tok.toLowerCase())}%`} escape '\\'`))))));
    }
    if (f.eventId !== undefined) {
      const id = f.eventId;
      q = t.table === 'venues'
        ? q.where('posts.id', 'in', db.selectFrom('events').select('venue_id').where('post_id', '=', id))
        : q.where('posts.id', 'in', db.selectFrom('event_organizers').select('organizer_id').where('event_id', '=', id));
    }
    if (f.hasEvents !== undefined) {
      const want = f.hasEvents;
      q = q.where((eb: any) => {
        const sub = eb.exists(link.exists(eb, 'posts.id').innerJoin('posts as lp', 'lp.id', 'le.' + (t.table === 'venues' ? 'post_id' : 'event_id'))
          .where('lp.status', 'not in', ['draft', 'pending', 'trash', 'auto-draft']));
        return want ? sub : eb.not(sub);
      });
    }
    if (f.upcomingFrom) {
      const { utc, visibility } = f.upcomingFrom;
      q = q.where((eb: any) => {
        let sub = link.exists(eb, 'posts.id').innerJoin('posts as lp', 'lp.id', 'le.' + (t.table === 'venues' ? 'post_id' : 'event_id'))
          .innerJoin('events as ue', 'ue.post_id', 'lp.id').where('ue.start_utc', '>=', utc);
        sub = visible(sub, visibility, 'lp');
        return eb.exists(sub);
      });
    }
    return q;
  };
  const byIds = reusableByIds<LinkedRow>(typed, (ids) => base().where('posts.id', 'in', ids));
  return {
    findById: (id: number) => base().where('posts.id', '=', id).executeTakeFirst() as Promise<LinkedRow | undefined>,
    findBySlug: (slug: string) => base().where('posts.slug', '=', slug).executeTakeFirst() as Promise<LinkedRow | undefined>,
    async findMany(ids: readonly number[]): Promise<Map<number, LinkedRow>> {
      if (ids.length === 0) return new Map();
      const rows = await byIds([...new Set(ids)]);
      return new Map(rows.map((r) => [r.id, r]));
    },
    async list(f: LinkedListFilter): Promise<{ rows: LinkedRow[]; total: number }> {
      const total = Number((await filtered(f).clearSelect().select(sql`count(*)`.as('c')).executeTakeFirst())?.c ?? 0);
      const rows = total === 0 ? [] : await filtered(f).orderBy('posts.date_local', 'desc').orderBy('posts.id', 'desc')
        .limit(f.limit).offset(f.offset).execute();
      return { rows, total };
    },
    /** A non-trashed record with this name (case-insensitive) and, when given, this description (§6.4). */
    async findDuplicate(name: string, description: string | undefined): Promise<LinkedRow | undefined> {
      let q = base().where('posts.status', '!=', 'trash').where(sql`lower(posts.title)`, '=', name.toLowerCase());
      if (description !== undefined) q = q.where(sql`lower(posts.content)`, '=', description.toLowerCase());
      return q.orderBy('posts.id').executeTakeFirst() as Promise<LinkedRow | undefined>;
    },
    async insertDetails(id: number, details: Record<string, unknown>): Promise<void> {
      await db.insertInto(t.table).values({ post_id: id, ...details }).execute();
    },
    async updateDetails(id: number, details: Record<string, unknown>): Promise<void> {
      if (Object.keys(details).length > 0) await db.updateTable(t.table).set(details).where('post_id', '=', id).execute();
    },
    /** Trashing a venue or organizer unlinks it from every event. */
    async unlinkFromEvents(id: number): Promise<void> {
      if (t.table === 'venues') await db.updateTable('events').set({ venue_id: null }).where('venue_id', '=', id).execute();
      else await db.deleteFrom('event_organizers').where('organizer_id', '=', id).execute();
    },
  };
}

export type LinkedRepository = ReturnType<typeof linkedRepository>;
