// From the stored recurrence (src/recurrence, format 1) to what the writer exports (`FeedSeries`): the rule's parts,
// EXDATE/RDATE as wall times of the series, and which occurrence posts stand apart from the rule.
import type { OccurrenceRow, StoredSeries } from '../recurrence/index.ts';
import { formatWall, makeWall, utcToWall, wallToEpoch } from '../time/index.ts';
import type { FeedEvent } from './feed-event.ts';
import type { FeedSeries, RecurrenceRule, Weekday } from './series.ts';

const ints = (v: string) => v.split(',').map(Number);

/**
 * A stored iCalendar date value as a wall time of the series: a `…Z` time in the series' zone; a bare date at the
 * series' time of day (`atTime`, as expansion reads it), or at `endOfDay` for an UNTIL.
 */
function wallOf(ical: string, zone: string, atTime: string): string {
  const y = +ical.slice(0, 4), mo = +ical.slice(4, 6), d = +ical.slice(6, 8);
  const day = `${ical.slice(0, 4)}-${ical.slice(4, 6)}-${ical.slice(6, 8)}`;
  if (ical.length === 8) return `${day} ${atTime}`;
  const w = makeWall(y, mo, d, +ical.slice(9, 11), +ical.slice(11, 13), +ical.slice(13, 15));
  return formatWall(ical.endsWith('Z') ? utcToWall(wallToEpoch(w), zone) : w);
}

/** The stored RRULE value (checked on write, canonical upper case) as rule parts. */
export function ruleOf(rrule: string, zone: string): RecurrenceRule {
  const parts = new Map(rrule.split(';').map((p) => p.split('=', 2) as [string, string]));
  const get = (k: string) => parts.get(k);
  const until = get('UNTIL');
  return {
    freq: get('FREQ') as RecurrenceRule['freq'],
    ...(get('INTERVAL') ? { interval: Number(get('INTERVAL')) } : {}),
    ...(get('COUNT') ? { count: Number(get('COUNT')) } : {}),
    // Expansion reads a date UNTIL as the end of that day (recurrence/expand.ts).
    ...(until ? { until: wallOf(until, zone, '23:59:59') } : {}),
    ...(get('BYDAY') ? { byDay: get('BYDAY')!.split(',') } : {}),
    ...(get('BYMONTHDAY') ? { byMonthDay: ints(get('BYMONTHDAY')!) } : {}),
    ...(get('BYMONTH') ? { byMonth: ints(get('BYMONTH')!) } : {}),
    ...(get('BYYEARDAY') ? { byYearDay: ints(get('BYYEARDAY')!) } : {}),
    ...(get('BYWEEKNO') ? { byWeekNo: ints(get('BYWEEKNO')!) } : {}),
    ...(get('BYSETPOS') ? { bySetPos: ints(get('BYSETPOS')!) } : {}),
    ...(get('WKST') ? { wkst: get('WKST') as Weekday } : {}),
  };
}

/**
 * The series as one VEVENT. `edited` holds the feed's view of occurrences edited alone (by post id). An occurrence
 * edited alone that the reader sees is a RECURRENCE-ID override; an occurrence the reader may not list (`listable`
 * says by status: trashed, draft, private) is an EXDATE, so a client never shows a date the API does not list.
 * @example feedSeriesOf(stored, firstEvent, editedById, (status) => status === 'publish')
 */
export function feedSeriesOf(stored: StoredSeries, first: FeedEvent, edited: ReadonlyMap<number, FeedEvent>, listable: (status: string) => boolean): FeedSeries {
  const zone = first.timezone;
  const time = first.startLocal.slice(11);
  const exdates = new Set(stored.spec.exdates.map((x) => wallOf(x, zone, time)));
  const overrides: Array<{ recurrenceId: string; event: FeedEvent }> = [];
  for (const o of stored.occurrences) {
    if (!listable(o.status)) exdates.add(o.recurrence_id);
    else if (o.overridden === 1) {
      const event = edited.get(o.post_id);
      // Listed by status but not shown (hidden from listings, unreadable dates): not a date of the feed either.
      if (event === undefined) exdates.add(o.recurrence_id);
      else overrides.push({ recurrenceId: o.recurrence_id, event });
    }
  }
  return {
    first,
    rule: ruleOf(stored.spec.rrule, zone),
    rdates: stored.spec.rdates.map((r) => wallOf(r, zone, time)),
    exdates: [...exdates].sort(),
    overrides,
  };
}

/** Ids of the occurrences of `stored` whose own event the feed shows (edited alone and listable). */
export const editedIds = (stored: StoredSeries, listable: (status: string) => boolean): number[] =>
  stored.occurrences.filter((o: OccurrenceRow) => o.overridden === 1 && listable(o.status)).map((o) => o.post_id);
