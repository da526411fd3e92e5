import { sql, type Kysely } from 'kysely';
import {
  reusableByIds,
  type Database,
  type EventColumnName,
  type EventColumns,
  type EventColumnsPatch,
  type NewEventColumns,
} from '../db/index.ts';
import { anyBadDate, type PostRow, type Visibility } from '../post/index.ts';
import { eventSelect } from './field-rules.ts';

/** The post row and every event column of the select list (event/fields.ts). */
export type EventRow = PostRow & Pick<EventColumns, EventColumnName>;

export interface EventListFilter {
  visibility: Visibility;
  /** Bounds on local wall times (`YYYY-MM-DD HH:MM:SS`): start ≥, end ≤, and the strict relative ones. */
  startGte?: string;
  endLte?: string;
  startLt?: string;
  startGt?: string;
  endLt?: string;
  endGt?: string;
  words?: string[];
  categoryIds?: number[];
  tagIds?: number[];
  venueIds?: number[];
  organizerIds?: number[];
  featured?: boolean;
  parentId?: number;
  include?: number[];
  /** Venue has coordinates; with a point, within `radiusKm` of it. */
  geo?: { lat?: number; lng?: number; radiusKm: number };
  /** Sort order (`tec/v1`'s orderby/order); by start date ascending when absent. */
  order?: EventOrder;
  limit: number;
  offset: number;
}

export interface EventOrder {
  readonly by: 'event_date' | 'date' | 'title' | 'menu_order' | 'modified';
  readonly desc: boolean;
}
const ORDER_COLUMNS = {
  event_date: 'events.start_local',
  date: 'posts.date_local',
  title: 'posts.title',
  menu_order: 'posts.menu_order',
  modified: 'posts.modified_local',
} as const;

const escapeLike = (s: string) => s.replace(/[%_\\]/g, (c) => `\\${c}`);

/** SQL for events: the post row joined with its event columns, plus linked organizers and venue. */
export const EVENT_DATE_COLUMNS = ['start_local', 'end_local', 'start_utc', 'end_utc'] as const;

const EVENT_SELECT = eventSelect() as `events.${EventColumnName}`[];

export function eventRepository(db: Kysely<Database>) {
  const base = () =>
    db
      .selectFrom('posts')
      .innerJoin('events', 'events.post_id', 'posts.id')
      .selectAll('posts')
      .select(EVENT_SELECT)
      .where('posts.type', '=', 'tribe_events');

  const filtered = (f: EventListFilter) => {
    // An event whose UTC end precedes its start (an end sent before the start, §4.3) gets no occurrence in TEC 6's
    // custom tables, so no list shows it; it is still readable by id.
    let q = base()
      .where('posts.status', 'in', f.visibility.statuses)
      .where('events.hide_from_listings', '=', 0)
      .whereRef('events.end_utc', '>=', 'events.start_utc');
    if (f.visibility.ownerId !== undefined) {
      const owner = f.visibility.ownerId;
      q = q.where((eb) => eb.or([eb('posts.status', '=', 'publish'), eb('posts.author', '=', owner)]));
    }
    if (f.startGte !== undefined) q = q.where('events.start_local', '>=', f.startGte);
    // Every event starts no later than it ends, so an upper bound on the end also bounds the start: that gives the
    // start-date index a closed range to scan.
    if (f.endLte !== undefined)
      q = q.where('events.end_local', '<=', f.endLte).where('events.start_local', '<=', f.endLte);
    if (f.startLt !== undefined) q = q.where('events.start_local', '<', f.startLt);
    if (f.startGt !== undefined) q = q.where('events.start_local', '>', f.startGt);
    if (f.endLt !== undefined) q = q.where('events.end_local', '<', f.endLt).where('events.start_local', '<', f.endLt);
    if (f.endGt !== undefined) q = q.where('events.end_local', '>', f.endGt);
    for (const word of f.words ?? []) {
      const like = sql<string>`${`%${escapeLike(word.toLowerCase())}%`} escape '\\'`;
      q = q.where((eb) =>
        eb.or([
          eb(eb.fn('lower', ['posts.title']), 'like', like),
          eb(eb.fn('lower', ['posts.excerpt']), 'like', like),
          eb(eb.fn('lower', ['posts.content']), 'like', like),
        ]),
      );
    }
    for (const ids of [f.categoryIds, f.tagIds]) {
      if (ids === undefined) continue;
      q = q.where(
        'posts.id',
        'in',
        db
          .selectFrom('event_terms')
          .select('event_id')
          .where('term_id', 'in', ids.length ? ids : [0]),
      );
    }
    if (f.venueIds !== undefined) q = q.where('events.venue_id', 'in', f.venueIds.length ? f.venueIds : [0]);
    if (f.organizerIds !== undefined) {
      const ids = f.organizerIds.length ? f.organizerIds : [0];
      q = q.where(
        'posts.id',
        'in',
        db.selectFrom('event_organizers').select('event_id').where('organizer_id', 'in', ids),
      );
    }
    if (f.featured !== undefined) q = q.where('events.featured', '=', f.featured ? 1 : 0);
    if (f.parentId !== undefined) q = q.where('events.parent_id', '=', f.parentId);
    if (f.include !== undefined) q = q.where('posts.id', 'in', f.include.length ? f.include : [0]);
    if (f.geo !== undefined) {
      const { lat, lng, radiusKm } = f.geo;
      let venues = db
        .selectFrom('venues')
        .select('post_id')
        .where('geo_lat', 'is not', null)
        .where('geo_lng', 'is not', null);
      if (lat !== undefined && lng !== undefined) {
        // Equirectangular distance: exact enough at city radii and plain arithmetic in both SQL dialects.
        const kmPerDeg = 111.32;
        const cos = Math.cos((lat * Math.PI) / 180);
        venues = venues.where(
          sql<boolean>`((geo_lat - ${lat}) * ${kmPerDeg}) * ((geo_lat - ${lat}) * ${kmPerDeg}) + ((geo_lng - ${lng}) * ${kmPerDeg * cos}) * ((geo_lng - ${lng}) * ${kmPerDeg * cos}) <= ${radiusKm * radiusKm}`,
        );
      }
      q = q.where('events.venue_id', 'in', venues);
    }
    return q;
  };

  /** The list order: `include` lists by publication date, others by start date unless an order is asked for. */
  const orderOf = (f: EventListFilter): Array<[string, 'asc' | 'desc']> => {
    if (f.include !== undefined)
      return [
        ['posts.date_local', 'asc'],
        ['posts.id', 'asc'],
      ];
    const dir = f.order?.desc === true ? 'desc' : 'asc';
    return [
      [ORDER_COLUMNS[f.order?.by ?? 'event_date'], dir],
      ['events.post_id', dir],
    ];
  };

  const byId = reusableByIds(db, (ids) => base().where('posts.id', '=', ids[0]!));
  const organizerLinks = reusableByIds(db, (ids) =>
    db
      .selectFrom('event_organizers')
      .select(['event_id', 'organizer_id'])
      .where('event_id', 'in', ids)
      .orderBy('event_id')
      .orderBy('position'),
  );

  return {
    /** Events whose date columns look broken (see `anyBadDate`), trashed ones included. */
    badDates: () =>
      db
        .selectFrom('events')
        .select(['post_id', ...EVENT_DATE_COLUMNS])
        .where(anyBadDate(EVENT_DATE_COLUMNS))
        .orderBy('post_id')
        .execute(),
    findById: async (id: number): Promise<EventRow | undefined> => (await byId([id]))[0],
    /** The events of `ids` that exist, in no particular order. */
    findByIds: (ids: readonly number[]): Promise<EventRow[]> =>
      ids.length === 0 ? Promise.resolve([]) : base().where('posts.id', 'in', ids).execute(),
    findBySlug: (slug: string): Promise<EventRow | undefined> =>
      base().where('posts.slug', '=', slug).executeTakeFirst(),
    async list(f: EventListFilter): Promise<{ rows: EventRow[]; total: number }> {
      let q = filtered(f);
      for (const [col, dir] of orderOf(f)) q = q.orderBy(sql.ref(col), dir);
      const count = () =>
        filtered(f)
          .clearSelect()
          .select(sql<number>`count(*)`.as('c'))
          .executeTakeFirst();
      // The page does not need the total first (past the end it is simply empty), so both run at once: on
      // PostgreSQL that saves a round trip per list.
      const [counted, rows] = await Promise.all([count(), q.limit(f.limit).offset(f.offset).execute()]);
      return { rows, total: Number(counted?.c ?? 0) };
    },
    /** The ids of a page of `list`, in its order, without the total: a reader with the bodies cached needs no more. */
    async listIds(f: EventListFilter): Promise<number[]> {
      let q = filtered(f).clearSelect().select('posts.id');
      for (const [col, dir] of orderOf(f)) q = q.orderBy(sql.ref(col), dir);
      return (await q.limit(f.limit).offset(f.offset).execute()).map((r) => r.id);
    },
    /** How many events `list` would page through. */
    async count(f: EventListFilter): Promise<number> {
      return Number(
        (
          await filtered(f)
            .clearSelect()
            .select(sql<number>`count(*)`.as('c'))
            .executeTakeFirst()
        )?.c ?? 0,
      );
    },
    async insert(details: NewEventColumns): Promise<void> {
      await db.insertInto('events').values(details).execute();
    },
    async update(id: number, patch: EventColumnsPatch): Promise<void> {
      if (Object.keys(patch).length > 0) await db.updateTable('events').set(patch).where('post_id', '=', id).execute();
    },
    async organizersOf(eventIds: readonly number[]): Promise<Map<number, number[]>> {
      const out = new Map<number, number[]>();
      if (eventIds.length === 0) return out;
      const rows = await organizerLinks(eventIds);
      for (const r of rows) out.set(r.event_id, [...(out.get(r.event_id) ?? []), r.organizer_id]);
      return out;
    },
    async setOrganizers(eventId: number, organizerIds: readonly number[]): Promise<void> {
      await db.deleteFrom('event_organizers').where('event_id', '=', eventId).execute();
      const unique = [...new Set(organizerIds)];
      if (unique.length > 0) {
        await db
          .insertInto('event_organizers')
          .values(unique.map((organizer_id, position) => ({ event_id: eventId, organizer_id, position })))
          .execute();
      }
    },
  };
}

export type EventRepository = ReturnType<typeof eventRepository>;
