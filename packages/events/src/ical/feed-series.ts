// From the stored recurrence (src/recurrence, format 1) to what the writer exports (`FeedSeries`): the rule's parts,
// EXDATE/RDATE as wall times of the series, and which occurrence posts stand apart from the rule.
import { parseRule, RulePartError, type OccurrenceRow, type Rule, type StoredSeries } from '../recurrence/index.ts';
import { formatWall, makeWall, parseWall, utcToWall, wallToEpoch, wallToUtc } from '../time/index.ts';
import type { FeedEvent } from './feed-event.ts';
import type { FeedSeries, RecurrenceRule } from './series.ts';

/**
 * A stored iCalendar date value as a wall time of the series: a `…Z` time in the series' zone; a bare date at the
 * series' time of day (`atTime`, as expansion reads it), or at `endOfDay` for an UNTIL.
 */
function wallOf(ical: string, zone: string, atTime: string): string {
  const y = +ical.slice(0, 4),
    mo = +ical.slice(4, 6),
    d = +ical.slice(6, 8);
  const day = `${ical.slice(0, 4)}-${ical.slice(4, 6)}-${ical.slice(6, 8)}`;
  if (ical.length === 8) return `${day} ${atTime}`;
  const w = makeWall(y, mo, d, +ical.slice(9, 11), +ical.slice(11, 13), +ical.slice(13, 15));
  return formatWall(ical.endsWith('Z') ? utcToWall(wallToEpoch(w), zone) : w);
}

/**
 * The stored RRULE value as rule parts, or undefined when it is not valid RFC 5545 (a row written before the rule was
 * checked part by part, or outside the service): such a rule is never exported, since one bad RRULE makes strict
 * parsers reject the whole feed.
 */
export function ruleOf(rrule: string, zone: string): RecurrenceRule | undefined {
  let r: Rule;
  try {
    r = parseRule(rrule);
  } catch (err) {
    if (err instanceof RulePartError) return undefined;
    throw err;
  }
  return {
    freq: r.freq,
    ...(r.interval !== 1 ? { interval: r.interval } : {}),
    ...(r.count !== undefined ? { count: r.count } : {}),
    // Expansion reads a date UNTIL as the end of that day (recurrence/expand.ts).
    ...(r.until !== undefined ? { until: wallOf(r.until, zone, '23:59:59') } : {}),
    ...(r.byDay ? { byDay: r.byDay.map((d) => `${d.ordinal ?? ''}${d.weekday}`) } : {}),
    ...(r.byMonthDay ? { byMonthDay: r.byMonthDay } : {}),
    ...(r.byMonth ? { byMonth: r.byMonth } : {}),
    ...(r.byYearDay ? { byYearDay: r.byYearDay } : {}),
    ...(r.byWeekNo ? { byWeekNo: r.byWeekNo } : {}),
    ...(r.bySetPos ? { bySetPos: r.bySetPos } : {}),
    ...(r.wkst !== undefined ? { wkst: r.wkst } : {}),
  };
}

/**
 * The series as one VEVENT. `edited` holds the feed's view of occurrences edited alone (by post id). An occurrence
 * edited alone that the reader sees is a RECURRENCE-ID override; an occurrence the reader may not list (`listable`
 * says by status: trashed, draft, private) is an EXDATE, so a client never shows a date the API does not list.
 * @example feedSeriesOf(stored, firstEvent, editedById, (status) => status === 'publish')
 */
export function feedSeriesOf(
  stored: StoredSeries,
  first: FeedEvent,
  edited: ReadonlyMap<number, FeedEvent>,
  listable: (status: string) => boolean,
): FeedSeries {
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
  const rule = ruleOf(stored.spec.rrule, zone);
  const rdates = new Set(stored.spec.rdates.map((r) => wallOf(r, zone, time)));
  // Without its rule the series is exported as what was expanded and stored: every occurrence start an RDATE.
  // DTSTART is an RDATE too: without a rule, ical.js does not count it as an instance.
  if (rule === undefined)
    for (const wall of [first.startLocal, ...stored.occurrences.map((o) => o.recurrence_id)]) rdates.add(wall);
  // A start the rule puts in a spring-forward gap (02:30 on the change day) is listed shifted forward (03:30, as
  // PHP and RFC 5545 §3.3.5 place it), but readers differ (ical.js moves it back an hour): the feed says it
  // explicitly, EXDATE of the rule's time and RDATE of the time listed, so every reader finds the API's instant.
  const real = (wall: string) => (first.allDay ? wall : formatWall(utcToWall(wallToUtc(parseWall(wall), zone), zone)));
  for (const o of stored.occurrences) {
    const listed = real(o.recurrence_id);
    if (listed === o.recurrence_id || exdates.has(o.recurrence_id)) continue;
    exdates.add(o.recurrence_id);
    rdates.delete(o.recurrence_id);
    rdates.add(listed);
  }
  return {
    first,
    ...(rule ? { rule } : {}),
    rdates: [...rdates].sort(),
    exdates: [...exdates].sort(),
    overrides: overrides.map((o) => ({ ...o, recurrenceId: real(o.recurrenceId) })),
  };
}

/** Ids of the occurrences of `stored` whose own event the feed shows (edited alone and listable). */
export const editedIds = (stored: StoredSeries, listable: (status: string) => boolean): number[] =>
  stored.occurrences.filter((o: OccurrenceRow) => o.overridden === 1 && listable(o.status)).map((o) => o.post_id);
