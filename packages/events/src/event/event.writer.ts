import type { Kysely } from 'kysely';
import type { Database, EventColumnsPatch } from '../db/index.ts';
import type { Caller } from '../http/route.ts';
import { checkArgs, type ArgSet } from '../http/args.ts';
import { ApiError, invalidParam } from '../http/errors.ts';
import {
  insertedPostTimes,
  isFloating,
  modifiedNow,
  OUT_OF_RANGE_DATE,
  postRepository,
  trashedPostDates,
  trashedSlug,
  untrashedSlug,
  updatedPostDates,
  isTitleSlug,
  sanitizeTitle,
  scaleStatus,
  withImages,
  writeFilters,
  writeTransaction,
  type ImageLibrary,
  type LinkedService,
  type Params,
  type PreparedImage,
  type Site,
  type WriteGeneration,
} from '../post/index.ts';
import { termRepository, type TermService } from '../term/index.ts';
import {
  endOfDay,
  formatWall,
  isStorableInstant,
  parseDateTime,
  readStoredWall,
  startOfDay,
  utcToWall,
  wallToUtc,
  type Wall,
} from '../time/index.ts';
import { parseCost } from './cost.ts';
import { eventRepository, type EventRow } from './event.repository.ts';
import { parseOrganizerRefs, parseVenueRef, type LinkedRef } from './event.links.ts';
import { refList, type EventWriteParams } from './event.args.ts';
import {
  excludeOccurrence,
  lockSeriesOf,
  parseRecurrence,
  planSeries,
  seriesRepository,
  seriesRole,
  syncSeries,
  type ExpandOptions,
  type SeriesPlan,
} from '../recurrence/index.ts';
import { eventInTrash, eventNotFound } from './event.errors.ts';
import { fieldColumns, insertDefaults, occurrenceCopier } from './field-rules.ts';

const INSERT_DEFAULTS = insertDefaults();
const occurrenceCopy = occurrenceCopier();

export interface EventWriterDeps {
  db: Kysely<Database>;
  site: Site;
  generation: WriteGeneration;
  terms: TermService;
  venues: LinkedService;
  organizers: LinkedService;
  media: ImageLibrary;
  venueCreateArgs: ArgSet;
  organizerCreateArgs: ArgSet;
  /** Bounds of recurring series (`EVENTS_RECURRENCE_MAX_OCCURRENCES`). */
  recurrence: ExpandOptions;
}

/** A written instant outside the storable range is a 400 on the field it came from, before anything is written. */
function storable(ms: number | undefined, zone: string, name: string): number {
  if (!isStorableInstant(ms, zone)) throw invalidParam(name, OUT_OF_RANGE_DATE);
  return ms;
}

/** The date columns of a write that sent a date field: sent dates parsed in the event's zone, others kept. */
function eventDates(p: EventWriteParams, existing: EventRow | undefined, zone: string, allDay: boolean, now: number) {
  const wallOf = (name: 'start_date' | 'end_date', sent: string | undefined, storedText: string | undefined): Wall => {
    if (sent !== undefined) return utcToWall(storable(parseDateTime(sent, zone, now), zone, name), zone);
    const stored = readStoredWall(storedText);
    // A row whose stored date is broken (written outside the service) is repaired by sending both dates.
    if (stored === undefined) throw invalidParam(name, `The stored ${name} is invalid: send start_date and end_date.`);
    return stored;
  };
  let start = wallOf('start_date', p.start_date, existing?.start_local);
  let end = wallOf('end_date', p.end_date, existing?.end_local);
  // TEC's duration is taken before an all-day event is widened to whole days (and an end before the start is 0).
  const duration = Math.max(0, Math.round((wallToUtc(end, zone) - wallToUtc(start, zone)) / 1000));
  if (allDay) {
    start = startOfDay(start);
    end = endOfDay(end);
  }
  const utcText = (w: Wall, name: string) => formatWall(utcToWall(storable(wallToUtc(w, zone), zone, name), 'UTC'));
  // End before start is not an error in the plugin: the event gets zero duration, but its UTC end is still
  // converted from the end as sent (TEC computes `_EventEndDateUTC` before clamping the local end).
  const endUtc = utcText(end, 'end_date');
  if (formatWall(end) < formatWall(start)) end = start;
  return {
    start_local: formatWall(start),
    end_local: formatWall(end),
    start_utc: utcText(start, 'start_date'),
    end_utc: endUtc,
    // The column is a 32-bit integer (PostgreSQL `integer`): an event longer than 68 years (the date range allows
    // ~9,000) stores NULL, which `tec/v1` reads as end − start, instead of failing the write.
    timezone: zone,
    all_day: allDay ? 1 : 0,
    duration: duration <= 2_147_483_647 ? duration : null,
  };
}

/** Event creates and updates: everything prepared before one transaction, then the sent fields applied in it. */
export function eventWriter(deps: EventWriterDeps) {
  const { db, site, generation, terms, venues, organizers } = deps;

  type ReadyRef = { id: number } | { params: Params; sent: Set<string>; image?: PreparedImage };
  /** Coerces inline venue/organizer data before the transaction: its validators read through the pool, and a
   *  transaction waiting on the pool while holding a connection could starve it under load. */
  async function prepareRefs(
    svc: LinkedService,
    args: ArgSet,
    refs: LinkedRef[],
    caller: Caller,
    now: number,
  ): Promise<ReadyRef[]> {
    const out: ReadyRef[] = [];
    for (const ref of refs) {
      if ('id' in ref) {
        out.push(ref);
        continue;
      }
      const params = await checkArgs<Params>(args, ref.inline, caller);
      const sent = new Set(Object.keys(ref.inline));
      // An unusable image of inline data is a problem with the event's `venue` or `organizer` parameter.
      const image = await svc.prepareImage(params, sent, caller, now).catch((err: unknown) => {
        throw err instanceof ApiError && err.code === 'rest_invalid_param' ? invalidParam(svc.kind.nameField) : err;
      });
      out.push({ params, sent, image });
    }
    return out;
  }
  const resolveLinked = (
    trx: Kysely<Database>,
    svc: LinkedService,
    caller: Caller,
    ref: ReadyRef,
    now: number,
  ): Promise<number> =>
    'id' in ref ? Promise.resolve(ref.id) : svc.writeIn(trx, caller, ref.params, ref.sent, now, { image: ref.image });

  /**
   * Resolves the images and inline venue/organizer data of a write before its transaction (downloads and files
   * included). If one is refused, the files of the images prepared before it are removed.
   */
  async function prepareWrite(caller: Caller, p: EventWriteParams, sent: ReadonlySet<string>, now: number) {
    const prepared: PreparedImage[] = [];
    const ready = async (svc: LinkedService, args: ArgSet, refs: LinkedRef[]) => {
      const out = await prepareRefs(svc, args, refs, caller, now);
      for (const r of out) if ('image' in r && r.image) prepared.push(r.image);
      return out;
    };
    return withImages(prepared, async () => {
      const eventImage = sent.has('image') ? await deps.media.prepare(p.image, caller, now) : undefined;
      if (eventImage) prepared.push(eventImage);
      const venueRef = sent.has('venue') ? parseVenueRef(p.venue) : 'none';
      const venueReady =
        venueRef === 'none' || venueRef === 'invalid' ? [] : await ready(venues, deps.venueCreateArgs, [venueRef]);
      const orgRefs = sent.has('organizer') ? parseOrganizerRefs(p.organizer) : 'invalid';
      const orgReady = orgRefs === 'invalid' ? undefined : await ready(organizers, deps.organizerCreateArgs, orgRefs);
      return { prepared, eventImage, venueReady, orgReady };
    });
  }

  /**
   * What the write does to a recurring series, expanded (and refused beyond the limits) before anything is written:
   * a first event's update re-applies its rule (the one sent, or the stored one) to the start it will have. Read
   * outside the transaction, so `syncSeries` checks it again under the series lock.
   */
  async function planRecurrence(
    p: EventWriteParams,
    sent: ReadonlySet<string>,
    now: number,
    existing: EventRow | undefined,
  ): Promise<SeriesPlan | 'occurrence' | undefined> {
    const role = existing ? await seriesRole(db, existing.id) : { role: 'none' as const };
    if (role.role === 'occurrence') {
      if (sent.has('recurrence'))
        throw invalidParam(
          'recurrence',
          `An occurrence has no rule of its own: send it to the series' first event (${role.seriesId}).`,
        );
      return 'occurrence';
    }
    const stored = existing && role.role === 'first' ? await seriesRepository(db).findSpec(existing.id) : undefined;
    const spec = sent.has('recurrence') ? parseRecurrence(p.recurrence) : stored;
    if (spec === undefined || (spec === null && role.role === 'none')) return undefined;
    const zone = sent.has('timezone') ? p.timezone || site.timezone : (existing?.timezone ?? site.timezone);
    const allDay = p.all_day ?? (existing ? existing.all_day === 1 : false);
    const datesSent = !existing || ['start_date', 'end_date', 'timezone', 'all_day'].some((k) => sent.has(k));
    const start = readStoredWall(
      datesSent ? eventDates(p, existing, zone, allDay, now).start_local : existing?.start_local,
    );
    if (start === undefined)
      throw invalidParam('start_date', 'The stored start_date is invalid: send start_date and end_date.');
    return planSeries(start, zone, spec, deps.recurrence);
  }

  /** Applies the sent fields of a create or update inside one transaction; returns the event id. */
  async function write(
    caller: Caller,
    p: EventWriteParams,
    sent: ReadonlySet<string>,
    now: number,
    existing?: EventRow,
  ): Promise<number> {
    const plan = await planRecurrence(p, sent, now, existing);
    const { prepared, eventImage, venueReady, orgReady } = await prepareWrite(caller, p, sent, now);
    const id = await withImages(prepared, () =>
      writeTransaction(db, async (trx) => {
        // The series lock comes first, before any row of the event is touched (see lockSeriesOf).
        const member = existing ? await lockSeriesOf(trx, existing.id) : undefined;
        if (existing && member === undefined) throw eventNotFound(existing.id);
        const posts = postRepository(trx);
        const events = eventRepository(trx);
        const termsBefore = existing ? await termRepository(trx).termIdsOf(existing.id) : [];
        const zone = sent.has('timezone') ? p.timezone || site.timezone : (existing?.timezone ?? site.timezone);
        const allDay = p.all_day ?? (existing ? existing.all_day === 1 : false);
        const kses = writeFilters(caller);
        // Dates are rewritten only when a date field was sent, so concurrent updates of other fields cannot write back
        // dates read before another writer changed them.
        const datesSent = !existing || ['start_date', 'end_date', 'timezone', 'all_day'].some((k) => sent.has(k));
        const dates = datesSent ? eventDates(p, existing, zone, allDay, now) : undefined;
        const details: EventColumnsPatch = { ...dates };
        if (sent.has('cost')) {
          // A lone "0" is dropped like any empty field of the plugin's create arguments (PHP `empty('0')`).
          const raw = (Array.isArray(p.cost) ? p.cost : p.cost === null || String(p.cost) === '0' ? [] : [p.cost])
            .map((c) => kses.data(String(c)))
            .filter((s) => s.trim() !== '');
          const parsed = parseCost(raw);
          details.cost = raw.length ? JSON.stringify(raw) : null;
          if (p.keep_currency !== true)
            Object.assign(details, { currency_symbol: parsed.symbol, currency_position: parsed.position });
        }
        Object.assign(details, fieldColumns(p, sent, kses));
        if (venueReady[0]) details.venue_id = await resolveLinked(trx, venues, caller, venueReady[0], now);
        if (eventImage) details.thumbnail_id = await eventImage.commit(trx);
        const post: Record<string, unknown> = { ...modifiedNow(site.timezone, now) };
        if (p.title !== undefined) post.title = kses.data(p.title);
        if (p.description !== undefined) post.content = kses.post(p.description);
        if (p.excerpt !== undefined) post.excerpt = kses.post(p.excerpt);
        if (p.author !== undefined) post.author = p.author;
        if (p.sticky !== undefined) post.menu_order = p.sticky ? -1 : 0;
        if (p.status !== undefined || !existing) post.status = scaleStatus(p.status, caller);
        const status = (post.status as string | undefined) ?? existing!.status;
        if (!existing) Object.assign(post, insertedPostTimes(site.timezone, now, status, p.date, p.date_utc));
        else Object.assign(post, updatedPostDates(site.timezone, now, existing, status, p.date, p.date_utc));
        let eventId: number;
        if (existing) {
          eventId = existing.id;
          if (p.slug !== undefined)
            post.slug = await posts.freeSlug('tribe_events', sanitizeTitle(p.slug) || 'event', eventId);
          else if (existing.status === 'trash' && status !== 'trash') {
            const desired = untrashedSlug(existing.slug) || sanitizeTitle(p.title ?? existing.title) || 'event';
            post.slug = await posts.freeSlug('tribe_events', desired, eventId);
          } else if (
            p.title !== undefined &&
            isFloating(existing.status) &&
            isTitleSlug(existing.slug, existing.title)
          ) {
            // WordPress names a draft or pending post only when it is published, from the title it has then: a title
            // changed before publishing gives the new title's slug (issue 25). The stored name follows the title while
            // the event is unpublished; one that was sent (not derived from the title) is kept, as WordPress keeps it.
            const desired = sanitizeTitle(kses.data(p.title)) || 'event';
            if (!isTitleSlug(existing.slug, post.title as string))
              post.slug = await posts.freeSlug('tribe_events', desired, eventId);
          }
          await posts.update(eventId, post);
          await events.update(eventId, details);
        } else {
          const slug = await posts.freeSlug('tribe_events', sanitizeTitle(p.slug ?? kses.data(p.title!)) || 'event');
          eventId = await posts.insert({
            type: 'tribe_events',
            slug,
            title: kses.data(p.title!),
            content: '',
            excerpt: '',
            status: 'draft',
            author: caller.id,
            password: '',
            date_local: '',
            date_gmt: '',
            modified_local: '',
            modified_gmt: '',
            menu_order: 0,
            ...post,
          } as Parameters<typeof posts.insert>[0]);
          // Every column is named, defaults too, so all creates share one statement (prepared once on PostgreSQL). A
          // create always has its dates (`datesSent`); the `??` only tells the compiler so and never runs.
          await events.insert({
            ...INSERT_DEFAULTS,
            ...details,
            post_id: eventId,
            ...(dates ?? eventDates(p, undefined, zone, allDay, now)),
          });
        }
        // A new event's links are exactly the terms set here, so a create neither reads old links nor re-reads new ones.
        const termsSet: number[] = [];
        for (const [field, taxonomy] of [
          ['categories', 'tribe_events_cat'],
          ['tags', 'post_tag'],
        ] as const) {
          if (!sent.has(field)) continue;
          const ids = await terms.resolveForWrite(
            trx,
            taxonomy,
            refList(p[field]).map((x) => x as string | number),
            kses.data,
          );
          await termRepository(trx).setEventTerms(eventId, taxonomy, ids, !existing);
          termsSet.push(...ids);
        }
        if (orgReady) {
          const ids: number[] = [];
          for (const ref of orgReady) ids.push(await resolveLinked(trx, organizers, caller, ref, now));
          await events.setOrganizers(eventId, ids);
        }
        const termRepo = termRepository(trx);
        if (existing) await termRepo.recount([...termsBefore, ...(await termRepo.termIdsOf(eventId))]);
        else if (status === 'publish') await termRepo.countNewEvent(termsSet);
        // A first event's write carries over to its occurrences; an occurrence written alone leaves the series' edits.
        // An occurrence detached meanwhile (its day left the rule) is a plain event now and has nothing to mark.
        if (member?.seriesId !== undefined) {
          await seriesRepository(trx).markOverridden(eventId);
          // Sending a deleted occurrence a status other than trash is the one way to bring it back (README, recurring events).
          if (member.excluded && post.status !== undefined && post.status !== 'trash')
            await seriesRepository(trx).setExcluded(eventId, false);
        } else if (plan !== 'occurrence' && (plan !== undefined || existing !== undefined)) {
          await syncSeries(trx, eventId, plan, {
            sentRule: sent.has('recurrence'),
            expand: deps.recurrence,
            copy: occurrenceCopy,
          });
        }
        return eventId;
      }),
    );
    generation.bump();
    return id;
  }

  /**
   * Moves an event to the trash (WordPress keeps trashed posts; their slug gets `__trashed`). A series' first event
   * takes its occurrences with it; a single occurrence is excluded from its series (an EXDATE), as Pro excludes it.
   * Under the series lock the event is read again: a concurrent write may have deleted it (404) or trashed it (410).
   */
  async function trash(row: EventRow, now: number): Promise<void> {
    await writeTransaction(db, async (trx) => {
      const member = await lockSeriesOf(trx, row.id);
      if (member === undefined) throw eventNotFound(row.id);
      if (member.status === 'trash') throw eventInTrash();
      const posts = postRepository(trx);
      const termRepo = termRepository(trx);
      const trashOne = async (id: number) => {
        const r = await posts.findById(id);
        if (r === undefined || r.status === 'trash') return;
        // A draft or pending event has no name yet (it shows an empty slug): trashed, it is just `__trashed`.
        const slug = await posts.freeSlug('tribe_events', trashedSlug(isFloating(r.status) ? '' : r.slug), r.id);
        await posts.update(r.id, {
          status: 'trash',
          slug,
          ...modifiedNow(site.timezone, now),
          ...trashedPostDates(site.timezone, r),
        });
      };
      await trashOne(row.id);
      const trashed = [row.id];
      if (member.seriesId !== undefined) await excludeOccurrence(trx, row.id);
      else {
        for (const o of await seriesRepository(trx).occurrences(row.id)) {
          await trashOne(o.post_id);
          trashed.push(o.post_id);
        }
      }
      await termRepo.recount(await seriesRepository(trx).termIdsOf(trashed));
    });
    generation.bump();
  }

  /**
   * Deletes an event for good (`tec/v1`'s `force=true`): a series' first event takes its occurrences with it, and the
   * counts of the terms they carried are recounted.
   */
  async function remove(row: EventRow): Promise<void> {
    await writeTransaction(db, async (trx) => {
      const member = await lockSeriesOf(trx, row.id);
      if (member === undefined) throw eventNotFound(row.id);
      const series = seriesRepository(trx);
      const ids = [
        row.id,
        ...(member.seriesId === undefined ? (await series.occurrences(row.id)).map((o) => o.post_id) : []),
      ];
      const termIds = await series.termIdsOf(ids);
      const posts = postRepository(trx);
      for (const id of ids) await posts.remove(id);
      await termRepository(trx).recount(termIds);
    });
    generation.bump();
  }

  return { write, trash, remove };
}
