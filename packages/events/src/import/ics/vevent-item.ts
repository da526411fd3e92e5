import ICAL from 'ical.js';
import { formatWall, makeWall, wallToEpoch, type Wall } from '../../time/index.ts';
import { ItemRefused } from './ics-error.ts';
import { readTime, recurrenceDate, wallIn, type FeedTime } from './ics-times.ts';

/** One VEVENT as the REST write it stands for. */
export interface VeventItem {
  readonly uid: string;
  /** The RECURRENCE-ID of an override (resolved against its series' zone when written), else undefined. */
  readonly recurrenceId?: FeedTime;
  /** STATUS:CANCELLED: a series' occurrence so marked is trashed; a cancelled event is treated as absent. */
  readonly cancelled: boolean;
  /** The zone the event's times are in (null: the site zone). */
  readonly zone: string | null;
  /** The `POST /events` body, only the fields the VEVENT has (a create). */
  readonly params: Record<string, unknown>;
}

export interface ItemContext {
  readonly zones: ReadonlyMap<string, ICAL.Timezone>;
  /** The site zone: floating times and DATEs are read in it. */
  readonly siteZone: string;
  /** Now (ms): an endless RRULE is read up to a year after it (README, "iCalendar import"). */
  readonly now: number;
}

/** Plain text as event HTML: markup characters escaped, a `&` kept unless it would start an entity. */
const textToHtml = (s: string): string =>
  s
    .replace(/&(?=#?[a-zA-Z0-9]+;)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

const text = (v: ICAL.Component, name: string): string | undefined => {
  const value = v.getFirstPropertyValue(name);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
};

function timeOf(v: ICAL.Component, name: string, ctx: ItemContext): FeedTime | undefined {
  const prop = v.getFirstProperty(name);
  const value = prop?.getFirstValue();
  if (prop === null || !(value instanceof ICAL.Time)) return undefined;
  return readTime(value, tzidOf(prop), ctx.zones);
}

const tzidOf = (prop: ICAL.Property): string | undefined => {
  const tzid = prop.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : undefined;
};

/** EXDATE or RDATE values (several properties, several values each; a PERIOD counts by its start). */
function datesOf(v: ICAL.Component, name: string, zone: string | null, ctx: ItemContext): string[] {
  const out: string[] = [];
  for (const prop of v.getAllProperties(name)) {
    for (const value of prop.getValues()) {
      const t = value instanceof ICAL.Period ? value.start : value;
      if (!(t instanceof ICAL.Time)) throw new ItemRefused(`${name.toUpperCase()} has a value that is not a date`);
      out.push(recurrenceDate(readTime(t, tzidOf(prop), ctx.zones), zone, ctx.siteZone));
    }
  }
  return [...new Set(out)].sort();
}

const YEAR_MS = 365 * 86_400_000;
const compactDate = (w: Wall) => formatWall(w).slice(0, 10).replace(/-/g, '');

/**
 * The rule as the REST `recurrence` takes it. Our series must end (occurrences are posts), so a rule without COUNT
 * or UNTIL is read until the first of the month a year after now (or after its start): a re-sync moves that end
 * along, once a month.
 */
function ruleOf(v: ICAL.Component, start: Wall, zone: string | null, ctx: ItemContext) {
  const rules = v.getAllProperties('rrule');
  if (rules.length > 1) throw new ItemRefused('more than one RRULE (RFC 5545 deprecates it; not supported)');
  if (v.hasProperty('exrule')) throw new ItemRefused('EXRULE is not supported (RFC 5545 removed it)');
  const rdate = datesOf(v, 'rdate', zone, ctx);
  const recur = rules[0]?.getFirstValue();
  if (!(recur instanceof ICAL.Recur))
    // RDATEs alone: a rule of one occurrence (the start) plus them.
    return rdate.length > 0 ? { rrule: 'FREQ=DAILY;COUNT=1', exdate: [], rdate } : undefined;
  let rrule = recur.toString();
  if (recur.count == null && recur.until == null) {
    const from = new Date(Math.max(ctx.now, wallToEpoch(start)) + YEAR_MS);
    rrule += `;UNTIL=${compactDate(makeWall(from.getUTCFullYear(), from.getUTCMonth() + 1, 1))}`;
  }
  return { rrule, exdate: datesOf(v, 'exdate', zone, ctx), rdate };
}

/** LOCATION (its first comma part is the venue's name, the rest its address) and GEO as an inline venue. */
function venueOf(v: ICAL.Component): Record<string, unknown> | undefined {
  const location = text(v, 'location');
  if (location === undefined) return undefined;
  const at = location.indexOf(', ');
  const venue: Record<string, unknown> = { venue: textToHtml(at < 0 ? location : location.slice(0, at)) };
  if (at >= 0) venue.address = textToHtml(location.slice(at + 2));
  const geo = v.getFirstPropertyValue('geo');
  if (Array.isArray(geo) && geo.length === 2 && geo.every((n) => typeof n === 'number' && Number.isFinite(n))) {
    venue.geo_lat = geo[0];
    venue.geo_lng = geo[1];
  }
  return venue;
}

/** ORGANIZER (`CN=name:mailto:address`) as an inline organizer; without CN its address is its name. */
function organizerOf(v: ICAL.Component): Array<Record<string, unknown>> | undefined {
  const prop = v.getFirstProperty('organizer');
  const value = prop?.getFirstValue();
  if (prop === null || typeof value !== 'string') return undefined;
  const email = value.replace(/^mailto:/i, '').trim();
  const cn = prop.getParameter('cn');
  const name = typeof cn === 'string' && cn.trim() !== '' ? cn : email;
  if (name === '') return undefined;
  return [{ organizer: textToHtml(name), ...(email.includes('@') ? { email } : {}) }];
}

function categoriesOf(v: ICAL.Component): string[] | undefined {
  const names = v
    .getAllProperties('categories')
    .flatMap((p) => p.getValues())
    .filter((c): c is string => typeof c === 'string' && c.trim() !== '')
    .map((c) => textToHtml(c.trim()));
  return names.length > 0 ? [...new Set(names)] : undefined;
}

/**
 * The REST create a VEVENT stands for: SUMMARY, DESCRIPTION (plain text, escaped as HTML), DTSTART with DTEND or
 * DURATION in the start's zone (a DATE: an all-day event whose exclusive end becomes the day before's 23:59:59),
 * RRULE/RDATE/EXDATE, LOCATION and GEO, ORGANIZER, CATEGORIES. Not URL: feeds (ours, the plugin's, Google's) give
 * the event's page on their own site there, not a website of the event. Throws ItemRefused for what no write holds.
 * @example const item = veventItem(vevent, { zones, siteZone: 'UTC', now: Date.now() })
 */
export function veventItem(v: ICAL.Component, ctx: ItemContext): VeventItem {
  const uid = text(v, 'uid');
  if (uid === undefined) throw new ItemRefused('the VEVENT has no UID');
  const start = timeOf(v, 'dtstart', ctx);
  if (start === undefined) throw new ItemRefused('the VEVENT has no DTSTART');
  const recurrenceId = timeOf(v, 'recurrence-id', ctx);
  const zone = start.date ? null : start.zone;
  const startWall = start.wall;
  // `exceptions: []`: only DTEND/DURATION are read here. Without it ICAL.Event scans every VEVENT of the calendar for
  // overrides of this one, which made a 10,000-VEVENT feed quadratic (111 s instead of seconds).
  const end = new ICAL.Event(v, { exceptions: [] }).endDate as ICAL.Time | null;
  const endTime = end
    ? readTime(end, tzidOf(v.getFirstProperty('dtend') ?? v.getFirstProperty('dtstart')!), ctx.zones)
    : start;
  let endWall = wallIn(endTime, zone, ctx.siteZone);
  if (start.date) {
    // DTEND of a DATE is exclusive: the event ends the day before, at its last second (the plugin's all-day end).
    const last = makeWall(endWall.y, endWall.mo, endWall.d - 1, 23, 59, 59);
    endWall =
      wallToEpoch(last) < wallToEpoch(startWall) ? makeWall(startWall.y, startWall.mo, startWall.d, 23, 59, 59) : last;
  } else if (wallToEpoch(endWall) < wallToEpoch(startWall)) endWall = startWall;
  const description = text(v, 'description');
  const params: Record<string, unknown> = {
    title: textToHtml(text(v, 'summary') ?? ''),
    status: 'publish',
    start_date: formatWall(startWall),
    end_date: formatWall(endWall),
    all_day: start.date,
    timezone: zone ?? ctx.siteZone,
    ...(description === undefined ? {} : { description: textToHtml(description) }),
  };
  if (recurrenceId === undefined) {
    const recurrence = ruleOf(v, startWall, zone, ctx);
    if (recurrence !== undefined) params.recurrence = recurrence;
  }
  const venue = venueOf(v);
  if (venue !== undefined) params.venue = venue;
  const organizer = organizerOf(v);
  if (organizer !== undefined) params.organizer = organizer;
  const categories = categoriesOf(v);
  if (categories !== undefined) params.categories = categories;
  const status = text(v, 'status');
  return { uid, recurrenceId, cancelled: status?.toUpperCase() === 'CANCELLED', zone, params };
}

/**
 * What an update sends besides the VEVENT's fields: the fields it lacks, emptied, so a re-sync drops them too. Not
 * the description: the REST write refuses an empty one (as the plugin does), so a dropped DESCRIPTION stays.
 */
export const CLEARED: Readonly<Record<string, unknown>> = {
  venue: '',
  organizer: '',
  categories: '',
};

/** The RECURRENCE-ID of an override as its series stores it: `YYYY-MM-DD HH:MM:SS` in the series' zone. */
export const recurrenceKey = (rid: FeedTime, seriesZone: string | null, siteZone: string): string =>
  formatWall(wallIn(rid, seriesZone, siteZone));
