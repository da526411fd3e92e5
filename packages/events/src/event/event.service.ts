import type { Caller } from '../http/route.ts';
import { JsonText } from '../http/json-text.ts';
import {
  canRead,
  isFloating,
  isProtected,
  ItemCache,
  querySlug,
  shownLinked,
  type LinkedKind,
  type LinkedRow,
} from '../post/index.ts';
import { eventRepository, type EventListFilter, type EventRow } from './event.repository.ts';
import { formatEvent } from './event.format.ts';
import { blankEventBody } from './field-rules.ts';
import type { EventWriteParams } from './event.args.ts';
import { eventWriter, type EventWriterDeps } from './event.writer.ts';
import { readSeries, readSeriesOf, seriesRole } from '../recurrence/index.ts';

export interface EventServiceDeps extends EventWriterDeps {
  /** Memory for events read by id and their built bodies, kept until the next committed change (0: none). */
  itemCacheBytes: number;
}

/**
 * An event read in the current generation, with its single-item body once built for that same row and its list-item
 * body (JSON text) once a list built it. Both bodies are the anonymous reader's view; `restricted` says the event
 * links a venue or organizer that is not published, which only some logged-in readers may see, so for them the
 * body is built again (uncached). Otherwise the bodies depend only on stored data and every reader shares them.
 */
interface CachedEvent {
  readonly row: EventRow;
  readonly body?: JsonText;
  readonly listBody?: string;
  readonly restricted?: boolean;
  /** Bodies of the row in other shapes (`tec/v1`), by shape, each good until its instant (ms) or the next change. */
  readonly views?: ReadonlyMap<string, CachedView>;
}
/** One shape's body of a row: JSON text that every reader shares, valid before `until` (it shows is_past and such). */
/** A body in another shape; the same JsonText is served until it expires, so its validators are hashed once. */
export interface CachedView {
  readonly body: JsonText;
  readonly until: number;
}
// Rough heap cost: the row's long texts as UTF-16 plus the fixed columns and map entry, and the bodies' text.
const entryBytes = (e: CachedEvent) =>
  2 * (e.row.content.length + e.row.title.length + e.row.excerpt.length) +
  1024 +
  (e.body?.text.length ?? 0) +
  (e.listBody?.length ?? 0) +
  [...(e.views?.values() ?? [])].reduce((n, v) => n + v.body.text.length + 64, 0);

export function eventService(deps: EventServiceDeps) {
  const { db, site, generation, terms, venues, organizers } = deps;
  const repo = eventRepository(db);
  const { write, trash, remove } = eventWriter(deps);
  const items = new ItemCache<number, CachedEvent>(generation, deps.itemCacheBytes);
  // Slug → id, so by-slug reads reach the same cached rows and bodies (a slug costs its length plus the map entry).
  const slugs = new ItemCache<string, number>(
    generation,
    deps.itemCacheBytes === 0 ? 0 : Math.max(1, deps.itemCacheBytes >> 6),
  );
  /** A kind whose list-body formatting runs once per row object: events of one page often share a venue. */
  const formatOnce = (kind: LinkedKind): LinkedKind => {
    const done = new Map<LinkedRow, Record<string, unknown>>();
    // A protected venue or organizer is shown blanked inside events too, or its details would leak through them.
    const build: LinkedKind['format'] = (s, row, single) => shownLinked(kind.kind, row, kind.format(s, row, single));
    return {
      ...kind,
      format: (s, row, single) => {
        if (single) return build(s, row, single);
        let body = done.get(row);
        if (body === undefined) done.set(row, (body = build(s, row, single)));
        return body;
      },
    };
  };

  /** A kind that formats each row with its featured image from `images`. */
  const imagedKind = (kind: LinkedKind, images: ReadonlyMap<number, Record<string, unknown>>): LinkedKind => ({
    ...kind,
    format: (s, row, single) =>
      kind.format(s, row, single, typeof row.thumbnail_id === 'number' ? images.get(row.thumbnail_id) : undefined),
  });

  /**
   * Loads venues, organizers and terms for many events in five queries, then formats them; a sixth loads all the
   * page's featured images when any row has one. Links, terms and venues do not depend on each other and run side by
   * side on PostgreSQL; organizer rows follow by primary key (selecting them through the link table in one query
   * misled PostgreSQL's planner into reading every organizer).
   */
  async function present(
    rows: EventRow[],
    mode: 'list' | 'single' | 'written',
    viewer: Caller | null,
  ): Promise<{ bodies: Record<string, unknown>[]; restricted: boolean[] }> {
    if (rows.length === 0) return { bodies: [], restricted: [] };
    const ids = rows.map((r) => r.id);
    const venueIds = rows.map((r) => r.venue_id).filter((v): v is number => v !== null);
    const [orgIds, termMap, venueRows] = await Promise.all([
      repo.organizersOf(ids),
      terms.repo.termsOfEvents(ids),
      venues.many(venueIds),
    ]);
    const orgRows = await organizers.many([...orgIds.values()].flat());
    const imageIds = [
      ...rows.map((r) => r.thumbnail_id).filter((id): id is number => id !== null),
      ...venues.thumbnailIds(venueRows.values()),
      ...organizers.thumbnailIds(orgRows.values()),
    ];
    const images = imageIds.length > 0 ? await deps.media.bodies(imageIds) : new Map<number, Record<string, unknown>>();
    const fmtDeps = {
      site,
      venueKind: formatOnce(imagedKind(venues.kind, images)),
      organizerKind: formatOnce(imagedKind(organizers.kind, images)),
    };
    const restricted: boolean[] = [];
    const bodies = rows.map((r) => {
      const eventTerms = termMap.get(r.id) ?? [];
      const venue = r.venue_id === null ? undefined : venueRows.get(r.venue_id);
      const orgs = (orgIds.get(r.id) ?? []).map((id) => orgRows.get(id)).filter((o) => o !== undefined);
      restricted.push([venue, ...orgs].some((l) => l !== undefined && l.status !== 'publish'));
      // A linked post appears only to a reader who could read it directly (issue 16: a draft venue's address and a
      // draft organizer's e-mail must not reach anonymous readers through a published event).
      const body = formatEvent(
        fmtDeps,
        r,
        {
          venue: venue !== undefined && canRead(viewer, venue) ? venue : undefined,
          organizers: orgs.filter((o) => canRead(viewer, o)),
          categories: eventTerms.filter((t) => t.taxonomy === 'tribe_events_cat'),
          tags: eventTerms.filter((t) => t.taxonomy === 'post_tag'),
          image: r.thumbnail_id === null ? undefined : images.get(r.thumbnail_id),
        },
        mode === 'single',
      );
      // Lists show protected events blanked; a single GET refuses them instead unless unlocked (event.routes.ts), and
      // write answers go to a caller who may edit the event.
      return mode === 'list' && isProtected(r) ? blankEventBody(body) : body;
    });
    return { bodies, restricted };
  }

  /** A row found through its slug, unless it has no name yet (a draft or pending event). */

  async function findById(id: number): Promise<EventRow | undefined> {
    const hit = items.get(id);
    if (hit !== undefined) return hit.row;
    const readAt = items.current();
    const row = await repo.findById(id);
    if (row !== undefined) items.set(id, { row }, entryBytes({ row }), readAt);
    return row;
  }

  /**
   * The list bodies of `rows` as JSON texts, one per row: list bodies built in this generation are reused (pages,
   * windows and filters overlap), the others built together and kept.
   */
  async function listTexts(rows: EventRow[], viewer: Caller | null, readAt: number): Promise<string[]> {
    const texts = new Array<string>(rows.length);
    const restricted = new Array<boolean>(rows.length).fill(false);
    const missing: number[] = [];
    items.getMany(rows.map((r) => r.id)).forEach((hit, i) => {
      if (hit?.listBody !== undefined) {
        texts[i] = hit.listBody;
        restricted[i] = hit.restricted === true;
      } else missing.push(i);
    });
    if (missing.length > 0) {
      const missingRows = missing.map((i) => rows[i]!);
      const built = await present(missingRows, 'list', null);
      // Keep the cached row and single body when there are some (same generation, same data).
      const hits = items.getMany(missingRows.map((r) => r.id));
      items.setMany(
        missingRows.map((row, k) => {
          const listBody = JSON.stringify(built.bodies[k]);
          texts[missing[k]!] = listBody;
          restricted[missing[k]!] = built.restricted[k]!;
          const entry: CachedEvent = {
            row: hits[k]?.row ?? row,
            body: hits[k]?.body,
            listBody,
            restricted: built.restricted[k],
          };
          return [row.id, entry, entryBytes(entry)] as const;
        }),
        readAt,
      );
    }
    // A logged-in reader may see more of the events that link unpublished venues or organizers.
    const own = viewer === null ? [] : rows.flatMap((_, i) => (restricted[i] ? [i] : []));
    if (own.length > 0) {
      const mine = await present(
        own.map((i) => rows[i]!),
        'list',
        viewer,
      );
      own.forEach((i, k) => {
        texts[i] = JSON.stringify(mine.bodies[k]);
      });
    }
    return texts;
  }

  async function bySlug(slug: string): Promise<EventRow | undefined> {
    const id = slugs.get(slug);
    if (id !== undefined) return findById(id);
    const readAt = items.current();
    const row = await repo.findBySlug(slug);
    if (row === undefined) return undefined;
    slugs.set(slug, row.id, 2 * slug.length + 64, readAt);
    // The row read by id may be cached already (with its body): keep that one.
    const cached = items.get(row.id);
    if (cached !== undefined) return cached.row;
    items.set(row.id, { row }, entryBytes({ row }), readAt);
    return row;
  }

  return {
    /** Whether single bodies are kept here (then the HTTP response cache need not keep them too). */
    cachesItems: deps.itemCacheBytes > 0,
    findById,
    /** The rows of many events (any status) by id, in one query for those not cached; a gone one is left out. */
    async findByIds(ids: readonly number[]): Promise<Map<number, EventRow>> {
      const found = new Map<number, EventRow>();
      const hits = items.getMany([...ids]);
      const missing = ids.filter((id, i) => {
        const row = hits[i]?.row;
        if (row !== undefined) found.set(id, row);
        return row === undefined;
      });
      const readAt = items.current();
      const rows = await repo.findByIds(missing);
      items.setMany(
        rows.map((row) => [row.id, { row }, entryBytes({ row })] as const),
        readAt,
      );
      for (const r of rows) found.set(r.id, r);
      return found;
    },
    /** Whether the event is a series' first event, one of its occurrences, or neither (src/recurrence). */
    seriesRole: (id: number) => seriesRole(db, id),
    /** A series as the iCalendar export emits it (one VEVENT with RRULE/EXDATE/RDATE and RECURRENCE-ID overrides). */
    readSeries: (id: number) => readSeries(db, id, findById),
    /** The series many events belong to, read in a bounded number of queries (the iCalendar feeds). */
    readSeriesOf: (ids: readonly number[]) => readSeriesOf(db, ids),
    /**
     * The event a URL slug names, read as WordPress reads it (`sanitize_title_for_query`: `☕` finds `%e2%98%95`).
     * A draft or pending event has no slug in WordPress (`post_name` stays empty until it is published; we keep the
     * one it will be given only to hold its place), so no slug names it: the plugin answers such a by-slug with 400.
     */
    async findBySlug(sent: string): Promise<EventRow | undefined> {
      const row = await bySlug(querySlug(sent));
      return row === undefined || isFloating(row.status) ? undefined : row;
    },
    /** A page of events as JSON texts, one per event, and the total (`listTexts`). */
    async list(f: EventListFilter, viewer: Caller | null): Promise<{ items: string[]; total: number }> {
      const readAt = items.current();
      const { rows, total } = await repo.list(f);
      return { items: await listTexts(rows, viewer, readAt), total };
    },
    /**
     * The anonymous list bodies of a page, without its total (the iCalendar feeds): the page's ids first, then rows
     * only for the events whose list body is not kept. A feed of 1,000 cached events reads 1,000 ids, not 1,000 rows
     * with their texts (BENCHMARKS.md: most of an uncached feed's time on SQLite was that read).
     */
    async listAnonymous(f: EventListFilter): Promise<string[]> {
      const readAt = items.current();
      const ids = await repo.listIds(f);
      const hits = items.getMany(ids);
      const missing = ids.filter((_, i) => hits[i]?.listBody === undefined);
      const built = new Map<number, string>();
      if (missing.length > 0) {
        const { rows } = await repo.list({
          visibility: f.visibility,
          include: missing,
          limit: missing.length,
          offset: 0,
        });
        const texts = await listTexts(rows, null, readAt);
        rows.forEach((r, i) => built.set(r.id, texts[i]!));
      }
      // An event changed between the two reads (gone from the second) is left out, as a later list would.
      return ids.flatMap((id, i) => {
        const text = hits[i]?.listBody ?? built.get(id);
        return text === undefined ? [] : [text];
      });
    },
    /**
     * The single-event body as `viewer` may see it; the anonymous view is built once per cached row (the row from
     * `findById`) until the next change.
     */
    async present(row: EventRow, viewer: Caller | null): Promise<JsonText> {
      // The body kept beside this very row object was built from it: as current as the row (`peek`).
      const hit = items.peek(row.id);
      let body = hit?.row === row ? hit.body : undefined;
      let restricted = hit?.restricted === true;
      if (body === undefined) {
        // The row is cached, so it belongs to the current generation; a write while building keeps the body out.
        const readAt = items.current();
        const built = await present([row], 'single', null);
        body = JsonText.of(built.bodies[0]);
        restricted = built.restricted[0]!;
        if (hit?.row === row) {
          const entry: CachedEvent = { ...hit, body, restricted };
          items.set(row.id, entry, entryBytes(entry), readAt);
        }
      }
      if (!restricted || viewer === null) return body;
      return JsonText.of((await present([row], 'single', viewer)).bodies[0]);
    },
    /**
     * The single bodies of many events as `viewer`'s GETs would show them, built together in the five or six queries
     * of one page (webhook deliveries render a batch at once instead of one event at a time).
     */
    async presentMany(rows: EventRow[], viewer: Caller | null): Promise<JsonText[]> {
      return (await present(rows, 'single', viewer)).bodies.map((b) => JsonText.of(b));
    },
    /** The answer to a create, update or delete: the single body without `json_ld`, as the plugin answers writes. */
    async presentWritten(row: EventRow, viewer: Caller | null): Promise<Record<string, unknown>> {
      return (await present([row], 'written', viewer)).bodies[0]!;
    },
    create: (caller: Caller, p: EventWriteParams, sent: ReadonlySet<string>, now: number) =>
      write(caller, p, sent, now),
    update: (caller: Caller, row: EventRow, p: EventWriteParams, sent: ReadonlySet<string>, now: number) =>
      write(caller, p, sent, now, row),
    trash,
    remove,
    /** Rows of a page of events and the total, for answers in another shape (`tec/v1`) over the same cached rows. */
    async listRows(f: EventListFilter): Promise<{ rows: EventRow[]; total: number }> {
      const readAt = items.current();
      const ids = await repo.listIds(f);
      const hits = items.getMany(ids);
      const missing = ids.filter((_, i) => hits[i] === undefined);
      const read = new Map<number, EventRow>();
      if (missing.length > 0) {
        const { rows } = await repo.list({
          visibility: f.visibility,
          include: missing,
          limit: missing.length,
          offset: 0,
        });
        items.setMany(
          rows.map((row) => [row.id, { row }, entryBytes({ row })] as const),
          readAt,
        );
        for (const r of rows) read.set(r.id, r);
      }
      const rows = ids.flatMap((id, i) => {
        const r = hits[i]?.row ?? read.get(id);
        return r === undefined ? [] : [r];
      });
      const total = ids.length < f.limit && f.offset === 0 ? ids.length : await repo.count(f);
      return { rows, total };
    },
    /**
     * The bodies of `rows` in another shape (`key`, e.g. `tec/v1`), kept beside the cached rows: those still valid at
     * `now` are reused, the others built together by `build`, which says per row until when its body holds (undefined:
     * reader-specific, not kept).
     */
    async views(
      rows: readonly EventRow[],
      key: string,
      now: number,
      build: (rows: readonly EventRow[]) => Promise<Array<{ text: string; until?: number }>>,
    ): Promise<JsonText[]> {
      const hits = rows.map((r) => items.peek(r.id));
      const texts = new Array<JsonText>(rows.length);
      const missing: number[] = [];
      rows.forEach((r, i) => {
        const v = hits[i]?.row === r ? hits[i]?.views?.get(key) : undefined;
        if (v !== undefined && now < v.until) texts[i] = v.body;
        else missing.push(i);
      });
      if (missing.length === 0) return texts;
      // Read only when something is built: a served body needs no check of the change signal (a store read), as
      // it is only found beside the very row the caller read; what is built is kept only if nothing changed since.
      const readAt = items.current();
      const built = await build(missing.map((i) => rows[i]!));
      const keep: Array<readonly [number, CachedEvent, number]> = [];
      missing.forEach((i, k) => {
        const b = built[k]!;
        const body = new JsonText(b.text);
        texts[i] = body;
        const hit = hits[i];
        // Kept only beside the very row it was built from (a cached row of the current generation).
        if (b.until === undefined || hit === undefined || hit.row !== rows[i]) return;
        const views = new Map(hit.views);
        views.set(key, { body, until: b.until });
        const entry: CachedEvent = { ...hit, views };
        keep.push([rows[i]!.id, entry, entryBytes(entry)] as const);
      });
      if (keep.length > 0) items.setMany(keep, readAt);
      return texts;
    },
    /** Organizer ids and terms of many events (`tec/v1` bodies). */
    organizersOf: (ids: readonly number[]) => repo.organizersOf(ids),
  };
}

export type EventService = ReturnType<typeof eventService>;
