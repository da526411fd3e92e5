// A recurring series exported as one VEVENT with RRULE/RDATE/EXDATE plus one VEVENT per occurrence edited on its own
// (RECURRENCE-ID), RFC 5545 §3.8.5 and §3.8.4.4. The recurrence feature hands the feed a `FeedSeries`; this module
// knows nothing of how occurrences are stored.
import type { Rule } from '../recurrence/index.ts';
import { wallToUtc, parseWall } from '../time/index.ts';
import { dateOnly, utcDateTime } from './content-line.ts';
import type { FeedEvent } from './feed-event.ts';
import { timeProperty, veventLines, type VeventContext } from './vevent.ts';

/**
 * The RRULE parts a series may use (RFC 5545 §3.3.10), as recurrence/rule-parts.ts checks them, except that `until`
 * is a wall time in the series' zone and `byDay` is in its iCalendar form (`MO`, `2TU`, `-1FR`).
 */
export type RecurrenceRule = Omit<Rule, 'interval' | 'until' | 'byDay'> & {
  readonly interval?: number;
  readonly until?: string;
  readonly byDay?: readonly string[];
};

/** An occurrence edited on its own: `recurrenceId` is the wall start the rule gave it, `event` what it is now. */
export interface SeriesOverride {
  readonly recurrenceId: string;
  readonly event: FeedEvent;
}

/**
 * A series: its first occurrence (times and texts of the whole series), the rule, extra and removed occurrence
 * starts (wall times in the series' zone: `YYYY-MM-DD HH:MM:SS`, the time ignored for all-day series), overrides.
 */
export interface FeedSeries {
  readonly first: FeedEvent;
  readonly rule?: RecurrenceRule;
  readonly rdates: readonly string[];
  readonly exdates: readonly string[];
  readonly overrides: readonly SeriesOverride[];
}

/** The instant a wall time of the series denotes (for UNTIL, which must be UTC when DTSTART has a zone). */
const instantOf = (series: FeedSeries, wall: string): number => wallToUtc(parseWall(wall), series.first.timezone);

/** `FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=…` */
export function rruleValue(series: FeedSeries, rule: RecurrenceRule): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== undefined && rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.until !== undefined) {
    // UNTIL has DTSTART's value type: a DATE for all-day series, else a UTC time (required when DTSTART has a TZID).
    parts.push(`UNTIL=${series.first.allDay ? dateOnly(rule.until) : utcDateTime(instantOf(series, rule.until))}`);
  } else if (rule.count !== undefined) parts.push(`COUNT=${rule.count}`);
  if (rule.byDay?.length) parts.push(`BYDAY=${rule.byDay.join(',')}`);
  if (rule.byMonthDay?.length) parts.push(`BYMONTHDAY=${rule.byMonthDay.join(',')}`);
  if (rule.byMonth?.length) parts.push(`BYMONTH=${rule.byMonth.join(',')}`);
  if (rule.byYearDay?.length) parts.push(`BYYEARDAY=${rule.byYearDay.join(',')}`);
  if (rule.byWeekNo?.length) parts.push(`BYWEEKNO=${rule.byWeekNo.join(',')}`);
  if (rule.bySetPos?.length) parts.push(`BYSETPOS=${rule.bySetPos.join(',')}`);
  if (rule.wkst !== undefined) parts.push(`WKST=${rule.wkst}`);
  return parts.join(';');
}

/**
 * The VEVENTs of a series: the master with RRULE/RDATE/EXDATE, then each override with the master's UID.
 * @example seriesLines({ first, rule: { freq: 'WEEKLY', count: 10 }, rdates: [], exdates: [], overrides: [] }, ctx)
 */
export function seriesLines(series: FeedSeries, ctx: VeventContext): string[] {
  const { first } = series;
  const uid = `${first.id}@${ctx.host}`;
  const at = (name: string, wall: string) =>
    timeProperty(name, first, wall, first.allDay ? 0 : instantOf(series, wall), ctx);
  const extra: string[] = [];
  if (series.rule) extra.push(`RRULE:${rruleValue(series, series.rule)}`);
  for (const wall of series.rdates) extra.push(at('RDATE', wall));
  for (const wall of series.exdates) extra.push(at('EXDATE', wall));
  const lines = veventLines(first, ctx, extra, uid);
  for (const o of series.overrides)
    lines.push(...veventLines(o.event, ctx, [at('RECURRENCE-ID', o.recurrenceId)], uid));
  return lines;
}

/** The first and last instants a series' VEVENTs mention, for the VTIMEZONE range; a rule without end: `horizonUtc`. */
export function seriesSpan(series: FeedSeries, horizonUtc: number): { from: number; to: number } {
  const times = [
    series.first.startUtc,
    series.first.endUtc,
    ...series.overrides.flatMap((o) => [o.event.startUtc, o.event.endUtc]),
  ];
  for (const wall of [...series.rdates, ...series.exdates, ...series.overrides.map((o) => o.recurrenceId)])
    times.push(instantOf(series, wall));
  if (series.rule?.until !== undefined) times.push(instantOf(series, series.rule.until));
  else if (series.rule !== undefined) times.push(horizonUtc);
  return { from: Math.min(...times), to: Math.max(...times) };
}
