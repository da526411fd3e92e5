import vm from 'node:vm';
import { endOfDay, formatWall, makeWall, parseWall, utcToWall, wallFromEpoch, wallToEpoch, type Wall } from '../time/index.ts';
import { icalDate, RecurrenceError, rrule, type RecurrenceSpec } from './rule.ts';

/** How far a series may reach: every occurrence starts within this many years of the first. */
export const HORIZON_YEARS = 100;

export interface ExpandOptions {
  /** Most occurrences a series may have, its first event included (`EVENTS_RECURRENCE_MAX_OCCURRENCES`). */
  readonly maxOccurrences: number;
}

/** What a series repeats: the first event's local start, its zone and the rule. */
export interface SeriesPattern {
  readonly start: Wall;
  readonly zone: string;
  readonly spec: RecurrenceSpec;
}

/**
 * rrule walks day by day up to the year 9999 looking for a date a rule can never produce (`BYMONTH=2;BYMONTHDAY=30`,
 * `FREQ=DAILY;INTERVAL=7;BYDAY=MO` from a Tuesday): about a minute of blocked event loop. Expansion runs under a
 * V8 time limit instead; a rule that cannot be expanded in this budget is refused.
 */
// Wall-clock time: generous, so a busy machine does not refuse an ordinary rule (one expands in about a millisecond).
export const EXPANSION_BUDGET_MS = 2000;
const guardScript = new vm.Script('run()');
const guardContext = vm.createContext({ run: (): unknown => undefined });

function withinBudget(fn: () => void): void {
  guardContext.run = fn;
  try {
    guardScript.runInContext(guardContext, { timeout: EXPANSION_BUDGET_MS });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      throw new RecurrenceError(`The rule could not be expanded within ${EXPANSION_BUDGET_MS} ms (it may never match a date): check BYMONTH, BYMONTHDAY, BYDAY and INTERVAL.`);
    }
    throw err;
  } finally {
    guardContext.run = () => undefined;
  }
}

const tooMany = (max: number) =>
  new RecurrenceError(`The recurrence makes more than ${max} occurrences (EVENTS_RECURRENCE_MAX_OCCURRENCES); end it sooner with COUNT or UNTIL.`);

// rrule runs on "floating" dates: a Date whose UTC fields are the wall time. Expanding wall times and converting each
// to UTC in the series' zone afterwards keeps every occurrence at the same local time across DST changes.
const floating = (w: Wall): Date => new Date(wallToEpoch(w));

/** An iCalendar date value as a wall time in `zone`; a date without time is `undefined` time (a whole day). */
function wallOf(ical: string, zone: string): { wall: Wall; dateOnly: boolean } {
  const y = +ical.slice(0, 4), mo = +ical.slice(4, 6), d = +ical.slice(6, 8);
  if (ical.length === 8) return { wall: makeWall(y, mo, d), dateOnly: true };
  const w = makeWall(y, mo, d, +ical.slice(9, 11), +ical.slice(11, 13), +ical.slice(13, 15));
  return { wall: ical.endsWith('Z') ? utcToWall(wallToEpoch(w), zone) : w, dateOnly: false };
}

/**
 * The local start of every occurrence of a series, sorted, the first event's own start first (RFC 5545: DTSTART is
 * always an occurrence). Throws `RecurrenceError` when the series would exceed `maxOccurrences`, reach past
 * `HORIZON_YEARS`, or EXDATE would remove the first event. Cost: linear in the rule's iterations within the horizon.
 * @example expandSeries({ start: makeWall(2018, 1, 12, 10), zone: 'Europe/Paris', spec }, { maxOccurrences: 730 })
 */
export function expandSeries(p: SeriesPattern, o: ExpandOptions): Wall[] {
  const { start, zone, spec } = p;
  const max = o.maxOccurrences;
  const horizon = makeWall(start.y + HORIZON_YEARS, start.mo, start.d, start.h, start.mi, start.s);
  const options = rrule.RRule.parseString(spec.rrule);
  if (options.count != null && options.count > max) throw tooMany(max);
  const untilPart = /(?:^|;)UNTIL=([^;]+)/.exec(spec.rrule)?.[1];
  let until: Wall | undefined;
  if (untilPart !== undefined) {
    const u = wallOf(icalDate(untilPart)!, zone);
    until = u.dateOnly ? endOfDay(u.wall) : u.wall;
    if (wallToEpoch(until) > wallToEpoch(horizon)) throw new RecurrenceError(`UNTIL must be within ${HORIZON_YEARS} years of the first event.`);
  }
  let rule: InstanceType<typeof rrule.RRule>;
  try {
    rule = new rrule.RRule({ ...options, dtstart: floating(start), until: until ? floating(until) : null, tzid: null });
  } catch (err) {
    // rrule checks value ranges when it builds the rule (`BYSETPOS=0`, `BYMONTHDAY=40`).
    throw new RecurrenceError(`The rule is not valid: ${err instanceof Error ? err.message : String(err)}`);
  }
  const found: Wall[] = [];
  withinBudget(() => rule.between(floating(start), floating(horizon), true, (d) => {
    found.push(wallFromEpoch(d.getTime()));
    return found.length <= max;
  }));
  if (found.length > max) throw tooMany(max);
  if (options.count != null && found.length < options.count) {
    throw new RecurrenceError(`The rule does not make its COUNT of occurrences within ${HORIZON_YEARS} years of the first event.`);
  }
  const first = formatWall(start);
  const starts = new Set([first, ...found.map(formatWall)]);
  for (const r of spec.rdates) {
    const { wall, dateOnly } = wallOf(r, zone);
    const w = dateOnly ? { ...wall, h: start.h, mi: start.mi, s: start.s } : wall;
    const text = formatWall(w);
    if (text < first) throw new RecurrenceError(`RDATE ${r} is before the first event: move the event's start instead.`);
    if (wallToEpoch(w) > wallToEpoch(horizon)) throw new RecurrenceError(`RDATE ${r} is more than ${HORIZON_YEARS} years after the first event.`);
    starts.add(text);
  }
  for (const x of spec.exdates) {
    const { wall, dateOnly } = wallOf(x, zone);
    const day = formatWall(wall).slice(0, 10);
    const removed = dateOnly ? [...starts].filter((s) => s.startsWith(day)) : [formatWall(wall)];
    if (removed.includes(first)) throw new RecurrenceError(`EXDATE ${x} would remove the first event: move the event's start instead.`);
    for (const s of removed) starts.delete(s);
  }
  if (starts.size > max) throw tooMany(max);
  return [...starts].sort().map(parseWall);
}
