import type { Kysely } from 'kysely';
import type { Database, EventsTable } from '../db/index.ts';
import type { Caller } from '../http/route.ts';
import { checkArgs, type ArgSet } from '../http/args.ts';
import { JsonText } from '../http/json-text.ts';
import { ItemCache, modifiedNow, postDates, postRepository, sanitizeTitle, scaleStatus, stripActiveContent, writeTransaction,
  type LinkedKind, type LinkedRow, type LinkedService, type Params, type Site, type WriteGeneration } from '../post/index.ts';
import { termRepository, type TermService } from '../term/index.ts';
import { endOfDay, formatWall, parseDateTime, parseWall, startOfDay, utcToWall, wallToUtc, type Wall } from '../time/index.ts';
import { parseCost } from './cost.ts';
import { eventRepository, type EventListFilter, type EventRow } from './event.repository.ts';
import { formatEvent } from './event.format.ts';
import { parseOrganizerRefs, parseVenueRef, type LinkedRef } from './event.links.ts';
import { refList, type EventWriteParams } from './event.args.ts';

export interface EventServiceDeps {
  db: Kysely<Database>;
  site: Site;
  generation: WriteGeneration;
  terms: TermService;
  venues: LinkedService;
  organizers: LinkedService;
  venueCreateArgs: ArgSet;
  organizerCreateArgs: ArgSet;
  /** Memory for events read by id and their built bodies, kept until the next committed change (0: none). */
  itemCacheBytes: number;
}

/** An event read by id, and its single-item body once built for that same row. */
interface CachedEvent { readonly row: EventRow; readonly body?: JsonText }
// Rough heap cost of a row: its long texts as UTF-16, plus the fixed columns and map entry.
const rowBytes = (r: EventRow) => 2 * (r.content.length + r.title.length + r.excerpt.length) + 1024;

const toUtcText = (w: Wall, zone: string) => formatWall(utcToWall(wallToUtc(w, zone), 'UTC'));

export function eventService(deps: EventServiceDeps) {
  const { db, site, generation, terms, venues, organizers } = deps;
  const repo = eventRepository(db);
  const items = new ItemCache<number, CachedEvent>(generation, deps.itemCacheBytes);
  /** A kind whose list-body formatting runs once per row object: events of one page often share a venue. */
  const formatOnce = (kind: LinkedKind): LinkedKind => {
    const done = new Map<LinkedRow, Record<string, unknown>>();
    return { ...kind, format: (s, row, single) => {
      if (single) return kind.format(s, row, single);
      let body = done.get(row);
      if (body === undefined) done.set(row, body = kind.format(s, row, single));
      return body;
    } };
  };

  /**
   * Loads venues, organizers and terms for many events in five queries, then formats them. Links, terms and venues
   * do not depend on each other and run side by side on PostgreSQL; organizer rows follow by primary key (selecting
   * them through the link table in one query misled PostgreSQL's planner into reading every organizer).
   */
  async function present(rows: EventRow[], single: boolean): Promise<Record<string, unknown>[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const venueIds = rows.map((r) => r.venue_id).filter((v): v is number => v !== null);
    const [orgIds, termMap, venueRows] = await Promise.all([repo.organizersOf(ids), terms.repo.termsOfEvents(ids), venues.many(venueIds)]);
    const orgRows = await organizers.many([...orgIds.values()].flat());
    const fmtDeps = { site, venueKind: formatOnce(venues.kind), organizerKind: formatOnce(organizers.kind) };
    return rows.map((r) => {
      const eventTerms = termMap.get(r.id) ?? [];
      return formatEvent(fmtDeps, r, {
        venue: r.venue_id === null ? undefined : venueRows.get(r.venue_id),
        organizers: (orgIds.get(r.id) ?? []).map((id) => orgRows.get(id)).filter((o) => o !== undefined),
        categories: eventTerms.filter((t) => t.taxonomy === 'tribe_events_cat'),
        tags: eventTerms.filter((t) => t.taxonomy === 'post_tag'),
      }, single);
    });
  }

  type ReadyRef = { id: number } | { params: Params; sent: Set<string> };
  /** Coerces inline venue/organizer data before the transaction: its validators read through the pool, and a
   *  transaction waiting on the pool while holding a connection could starve it under load. */
  async function prepareRefs(args: ArgSet, refs: LinkedRef[]): Promise<ReadyRef[]> {
    const out: ReadyRef[] = [];
    for (const ref of refs) {
      out.push('id' in ref ? ref : { params: await checkArgs<Params>(args, ref.inline), sent: new Set(Object.keys(ref.inline)) });
    }
    return out;
  }
  const resolveLinked = (trx: Kysely<Database>, svc: LinkedService, caller: Caller, ref: ReadyRef, now: number): Promise<number> =>
    'id' in ref ? Promise.resolve(ref.id) : svc.writeIn(trx, caller, ref.params, ref.sent, now);

  /** Applies the sent fields of a create or update inside one transaction; returns the event id. */
  async function write(caller: Caller, p: EventWriteParams, sent: ReadonlySet<string>, now: number, existing?: EventRow): Promise<number> {
    const venueRef = sent.has('venue') ? parseVenueRef(p.venue) : 'none';
    const venueReady = venueRef === 'none' || venueRef === 'invalid' ? [] : await prepareRefs(deps.venueCreateArgs, [venueRef]);
    const orgRefs = sent.has('organizer') ? parseOrganizerRefs(p.organizer) : 'invalid';
    const orgReady = orgRefs === 'invalid' ? undefined : await prepareRefs(deps.organizerCreateArgs, orgRefs);
    const id = await writeTransaction(db, async (trx) => {
      const posts = postRepository(trx);
      const events = eventRepository(trx);
      const termsBefore = existing ? await termRepository(trx).termIdsOf(existing.id) : [];
      const zone = sent.has('timezone') ? (p.timezone || site.timezone) : (existing?.timezone ?? site.timezone);
      const wallOf = (v: string | undefined, fallback: string | undefined): Wall | undefined => {
        if (v !== undefined) return utcToWall(parseDateTime(v, zone, now)!, zone);
        return fallback === undefined ? undefined : parseWall(fallback);
      };
      const allDay = p.all_day ?? (existing ? existing.all_day === 1 : false);
      let start = wallOf(p.start_date, existing?.start_local)!;
      let end = wallOf(p.end_date, existing?.end_local)!;
      if (allDay) { start = startOfDay(start); end = endOfDay(end); }
      // End before start is not an error in the plugin: the event gets zero duration.
      if (formatWall(end) < formatWall(start)) end = start;
      const description = p.description === undefined ? undefined : caller.can('unfiltered_html') ? p.description : stripActiveContent(p.description);
      // Dates are rewritten only when a date field was sent, so concurrent updates of other fields cannot write back
      // dates read before another writer changed them.
      const datesSent = !existing || ['start_date', 'end_date', 'timezone', 'all_day'].some((k) => sent.has(k));
      const details: Partial<Omit<EventsTable, 'post_id'>> = datesSent ? {
        start_local: formatWall(start), end_local: formatWall(end), start_utc: toUtcText(start, zone), end_utc: toUtcText(end, zone),
        timezone: zone, all_day: allDay ? 1 : 0,
      } : {};
      if (sent.has('cost')) {
        const raw = (Array.isArray(p.cost) ? p.cost : [p.cost]).map(String).filter((s) => s.trim() !== '');
        const parsed = parseCost(raw);
        Object.assign(details, { cost: raw.length ? JSON.stringify(raw) : null, currency_symbol: parsed.symbol, currency_position: parsed.position });
      }
      if (sent.has('website')) details.website = p.website === null || p.website === undefined ? '' : String(p.website);
      for (const flag of ['show_map', 'show_map_link', 'hide_from_listings', 'featured'] as const) {
        if (p[flag] !== undefined) details[flag] = p[flag] ? 1 : 0;
      }
      if (venueReady[0]) details.venue_id = await resolveLinked(trx, venues, caller, venueReady[0], now);
      const post: Record<string, unknown> = { ...modifiedNow(site.timezone, now) };
      if (p.title !== undefined) post.title = p.title;
      if (description !== undefined) post.content = description;
      if (p.excerpt !== undefined) post.excerpt = p.excerpt;
      if (p.author !== undefined) post.author = p.author;
      if (p.sticky !== undefined) post.menu_order = p.sticky ? -1 : 0;
      if (p.status !== undefined || !existing) post.status = scaleStatus(p.status, caller);
      if (p.date !== undefined || p.date_utc !== undefined || !existing) Object.assign(post, postDates(site.timezone, now, p.date, p.date_utc));
      let eventId: number;
      if (existing) {
        eventId = existing.id;
        if (p.slug !== undefined) post.slug = await posts.freeSlug('tribe_events', sanitizeTitle(p.slug) || 'event', eventId);
        await posts.update(eventId, post);
        await events.update(eventId, details);
      } else {
        const slug = await posts.freeSlug('tribe_events', sanitizeTitle(p.slug ?? p.title!) || 'event');
        eventId = await posts.insert({
          type: 'tribe_events', slug, title: p.title!, content: '', excerpt: '', status: 'draft', author: caller.id, password: '',
          date_local: '', date_gmt: '', modified_local: '', modified_gmt: '', menu_order: 0, ...post,
        } as Parameters<typeof posts.insert>[0]);
        await events.insert({
          post_id: eventId, cost: null, currency_symbol: '', currency_position: '', website: null, show_map: 0, show_map_link: 0,
          hide_from_listings: 0, featured: 0, venue_id: null, parent_id: null, ...details,
        } as EventsTable);
      }
      // A new event's links are exactly the terms set here, so a create neither reads old links nor re-reads new ones.
      const termsSet: number[] = [];
      for (const [field, taxonomy] of [['categories', 'tribe_events_cat'], ['tags', 'post_tag']] as const) {
        if (!sent.has(field)) continue;
        const ids = await terms.resolveForWrite(trx, taxonomy, refList(p[field]).map((x) => x as string | number));
        await termRepository(trx).setEventTerms(eventId, taxonomy, ids, !existing);
        termsSet.push(...ids);
      }
      if (orgReady) {
        const ids: number[] = [];
        for (const ref of orgReady) ids.push(await resolveLinked(trx, organizers, caller, ref, now));
        await events.setOrganizers(eventId, ids);
      }
      const termRepo = termRepository(trx);
      await termRepo.recount([...termsBefore, ...(existing ? await termRepo.termIdsOf(eventId) : termsSet)]);
      return eventId;
    });
    generation.bump();
    return id;
  }

  return {
    async findById(id: number): Promise<EventRow | undefined> {
      const hit = items.get(id);
      if (hit !== undefined) return hit.row;
      const readAt = items.current();
      const row = await repo.findById(id);
      if (row !== undefined) items.set(id, { row }, rowBytes(row), readAt);
      return row;
    },
    findBySlug: (slug: string) => repo.findBySlug(slug),
    async list(f: EventListFilter) {
      const { rows, total } = await repo.list(f);
      return { items: await present(rows, false), total };
    },
    /** The single-event body; built once per cached row (the row from `findById`) until the next change. */
    async present(row: EventRow): Promise<JsonText> {
      const hit = items.get(row.id);
      if (hit?.row === row && hit.body !== undefined) return hit.body;
      // The row is cached, so it belongs to the current generation; a write while building keeps the body out.
      const readAt = items.current();
      const body = JsonText.of((await present([row], true))[0]);
      if (hit?.row === row) items.set(row.id, { row, body }, rowBytes(row) + body.text.length, readAt);
      return body;
    },
    create: (caller: Caller, p: EventWriteParams, sent: ReadonlySet<string>, now: number) => write(caller, p, sent, now),
    update: (caller: Caller, row: EventRow, p: EventWriteParams, sent: ReadonlySet<string>, now: number) => write(caller, p, sent, now, row),
    async trash(row: EventRow, now: number): Promise<void> {
      await writeTransaction(db, async (trx) => {
        const posts = postRepository(trx);
        const slug = await posts.freeSlug('tribe_events', `${row.slug}__trashed`, row.id);
        await posts.update(row.id, { status: 'trash', slug, ...modifiedNow(site.timezone, now) });
        const termRepo = termRepository(trx);
        await termRepo.recount(await termRepo.termIdsOf(row.id));
      });
      generation.bump();
    },
  };
}

export type EventService = ReturnType<typeof eventService>;
