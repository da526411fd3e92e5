import type { LinkedRow, Site } from '../post/index.ts';
import type { TermWithCount } from '../term/index.ts';
import { readStoredWall, utcToWall, wallToEpoch, wallToUtc, formatWall, type Wall } from '../time/index.ts';
import { costBody, type ParsedCost } from '../event/cost.ts';
import type { EventRow } from '../event/event.repository.ts';
import { EVENT_FIELD_SHAPES } from '../event/index.ts';
import { postFields } from './post-shape.ts';
import { tecOrganizer, tecVenue } from './linked-shape.ts';
import { daysSpanned, scheduleDetails } from './schedule.ts';

// An event as `tec/v1` shows it (NOTES §4): the post fields, its term ids and classes, then the plugin's Event model
// properties. Built from the same rows `tribe/events/v1` formats, so both namespaces show the same event.

export interface TecEventLinks {
  readonly venues: readonly LinkedRow[];
  readonly organizers: readonly LinkedRow[];
  readonly terms: readonly TermWithCount[];
}

const dateObject = (date: string, timezone: string) => ({ date: `${date}.000000`, timezone_type: 3, timezone });

/** `post_class()`: the post, its type and status, then each tag and category (categories also as `cat_{slug}`). */
function classList(e: EventRow, tags: readonly TermWithCount[], cats: readonly TermWithCount[]): string[] {
  const out = [`post-${e.id}`, 'tribe_events', 'type-tribe_events', `status-${e.status}`];
  if (e.thumbnail_id !== null) out.push('has-post-thumbnail');
  out.push('hentry');
  if (e.password !== '') out.push('post-password-required');
  for (const t of tags) out.push(`tag-${t.slug}`);
  for (const c of cats) out.push(`tribe_events_cat-${c.slug}`);
  for (const c of cats) out.push(`cat_${c.slug}`);
  return out;
}

const byName = (a: TermWithCount, b: TermWithCount) => a.name.localeCompare(b.name);

/** The event's walls, or undefined when a stored date cannot be read (then the date fields show what is stored). */
function walls(e: EventRow): { start: Wall; end: Wall; startUtc: number; endUtc: number } | undefined {
  const start = readStoredWall(e.start_local);
  const end = readStoredWall(e.end_local);
  const su = readStoredWall(e.start_utc);
  const eu = readStoredWall(e.end_utc);
  if (!start || !end || !su || !eu) return undefined;
  return { start, end, startUtc: wallToEpoch(su), endUtc: wallToEpoch(eu) };
}

/** A nested venue or organizer under `_fields`: its post fields only as far as named, then its own, then `link`. */
function nested(
  body: Record<string, unknown>,
  postKeys: readonly string[],
  fields: ReadonlySet<string> | undefined,
): Record<string, unknown> {
  if (fields === undefined) return body;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!postKeys.includes(k) || (fields.has(k) && k !== 'link')) out[k] = v;
  out.link = body.link;
  return out;
}

export function tecEvent(
  site: Site,
  e: EventRow,
  links: TecEventLinks,
  now: number,
  fields?: ReadonlySet<string>,
): Record<string, unknown> {
  const tags = links.terms.filter((t) => t.taxonomy === 'post_tag').sort(byName);
  const cats = links.terms.filter((t) => t.taxonomy === 'tribe_events_cat').sort(byName);
  const w = walls(e);
  const siteDate = (utcMs: number) => formatWall(utcToWall(utcMs, site.timezone));
  const dates =
    w === undefined
      ? {}
      : {
          start: dateObject(e.start_local, e.timezone),
          start_utc: dateObject(e.start_utc, 'UTC'),
          start_site: dateObject(siteDate(w.startUtc), site.timezone),
          start_display: dateObject(e.start_local, e.timezone),
          end: dateObject(e.end_local, e.timezone),
          end_utc: dateObject(e.end_utc, 'UTC'),
          end_site: dateObject(siteDate(w.endUtc), site.timezone),
          end_display: dateObject(e.end_local, e.timezone),
        };
  const post = postFields(site, 'event', e, e.thumbnail_id);
  const postKeys = Object.keys(post);
  const own: ParsedCost = { symbol: e.currency_symbol, position: e.currency_position as ParsedCost['position'] };
  const currentYear = utcToWall(now, site.timezone).y;
  const schedule =
    w === undefined ? { full: '', short: '' } : scheduleDetails(w.start, w.end, e.all_day === 1, currentYear);
  const days = w === undefined ? 1 : daysSpanned(w.start, w.end);
  // Rows written before migration 013 have no stored duration: end − start then.
  const seconds = e.duration ?? (w === undefined ? 0 : Math.max(0, Math.round((w.endUtc - w.startUtc) / 1000)));
  // The event's fields of their own (event/fields.ts) take their places among these.
  const base = {
    ...post,
    tags: tags.map((t) => t.id),
    tribe_events_cat: cats.map((t) => t.id),
    class_list: classList(e, tags, cats),
    start_date: e.start_local,
    start_date_utc: e.start_utc,
    end_date: e.end_local,
    end_date_utc: e.end_utc,
    dates,
    timezone: e.timezone,
    duration: String(seconds),
    multiday: days > 1 ? days : false,
    is_past: w !== undefined && w.endUtc < now,
    is_now: w !== undefined && w.startUtc <= now && now <= w.endUtc,
    all_day: e.all_day === 1,
    starts_this_week: null,
    ends_this_week: null,
    this_week_duration: null,
    happens_this_week: null,
    displays_on: [],
    sticky: e.menu_order === -1,
    cost: costBody(e.cost, own, { symbol: site.currencySymbol, position: site.currencyPosition }).cost,
    organizer_names: links.organizers.map((o) => (tecOrganizer(site, o).title as { rendered: string }).rendered),
    organizers: links.organizers.map((o) => nested(tecOrganizer(site, o), postKeys, fields)),
    venues: links.venues.map((v) => nested(tecVenue(site, v), postKeys, fields)),
    schedule_details: schedule.full,
    short_schedule_details: schedule.short,
  };
  return EVENT_FIELD_SHAPES.tecBody(base, e, post.link as string);
}

/**
 * Until when a body built at `now` holds: `is_now` and `is_past` change at the start and just after the end, and the
 * schedule drops or shows the year at a new year (site time).
 */
export function tecEventValidUntil(site: Site, e: EventRow, now: number): number {
  const w = walls(e);
  const nextYear = wallToUtc({ y: utcToWall(now, site.timezone).y + 1, mo: 1, d: 1, h: 0, mi: 0, s: 0 }, site.timezone);
  const instants = w === undefined ? [nextYear] : [w.startUtc, w.endUtc + 1000, nextYear];
  return Math.min(...instants.filter((t) => t > now), nextYear);
}
