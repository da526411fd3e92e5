import vm from 'node:vm';
import {
  endOfDay,
  formatWall,
  makeWall,
  parseWall,
  utcToWall,
  wallFromEpoch,
  wallToEpoch,
  type Wall,
} from '../time/index.ts';
import { whyImpossible } from './impossible.ts';
import { readRule, RecurrenceError, rrule, type RecurrenceSpec } from './rule.ts';
import { RruleThread, type ExpansionRequest } from './rrule-thread.ts';

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
 * How long one rule may take to expand (its own run time, off the main thread: rrule-thread.ts). Rules that can never
 * match are refused before (impossible.ts); this bounds the rest, such as an INTERVAL that skips every matching year.
 * A daily series of two years expands in about 60 ms, a daily rule matching only 29 February twenty times in 0.9 s.
 */
export const EXPANSION_BUDGET_MS = 1500;
const sharedThread = new RruleThread(EXPANSION_BUDGET_MS);
const guardScript = new vm.Script('run()');
const guardContext = vm.createContext({ run: (): unknown => undefined });

const overBudget = () =>
  new RecurrenceError(
    `The rule could not be expanded within ${EXPANSION_BUDGET_MS} ms (it may never match a date): check BYMONTH, BYMONTHDAY, BYDAY and INTERVAL.`,
  );

/** rrule on this thread under a V8 time limit: for tests and tools; the service expands off-thread. */
function expandHere(req: ExpansionRequest): number[] {
  const rule = new rrule.RRule({
    ...rrule.RRule.parseString(req.rule),
    dtstart: new Date(req.dtstart),
    until: req.until === null ? null : new Date(req.until),
    tzid: null,
  });
  const dates: number[] = [];
  guardContext.run = () =>
    rule.between(new Date(req.dtstart), new Date(req.before), true, (d) => {
      dates.push(d.getTime());
      return dates.length <= req.max;
    });
  try {
    guardScript.runInContext(guardContext, { timeout: EXPANSION_BUDGET_MS });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw overBudget();
    throw err;
  } finally {
    guardContext.run = () => undefined;
  }
  return dates;
}

const tooMany = (max: number) =>
  new RecurrenceError(
    `The recurrence makes more than ${max} occurrences (EVENTS_RECURRENCE_MAX_OCCURRENCES); end it sooner with COUNT or UNTIL.`,
  );

/** An iCalendar date value as a wall time in `zone`; a date without time is `undefined` time (a whole day). */
function wallOf(ical: string, zone: string): { wall: Wall; dateOnly: boolean } {
  const y = +ical.slice(0, 4),
    mo = +ical.slice(4, 6),
    d = +ical.slice(6, 8);
  if (ical.length === 8) return { wall: makeWall(y, mo, d), dateOnly: true };
  const w = makeWall(y, mo, d, +ical.slice(9, 11), +ical.slice(11, 13), +ical.slice(13, 15));
  return { wall: ical.endsWith('Z') ? utcToWall(wallToEpoch(w), zone) : w, dateOnly: false };
}

/**
 * What rrule is asked for: the rule from the first event's start to the horizon, on "floating" dates (epoch ms whose
 * UTC fields are the wall time), so each occurrence keeps the local time across DST changes. Refuses beforehand what needs no
 * expansion to refuse: a COUNT over the limit, an UNTIL past the horizon, a rule that never makes a date.
 */
function expansionRequest(p: SeriesPattern, o: ExpandOptions): ExpansionRequest {
  const { start, zone, spec } = p;
  const rule = readRule(spec.rrule);
  if (rule.count !== undefined && rule.count > o.maxOccurrences) throw tooMany(o.maxOccurrences);
  const horizon = horizonOf(start);
  let until: Wall | undefined;
  if (rule.until !== undefined) {
    const u = wallOf(rule.until, zone);
    until = u.dateOnly ? endOfDay(u.wall) : u.wall;
    if (wallToEpoch(until) > wallToEpoch(horizon))
      throw new RecurrenceError(`UNTIL must be within ${HORIZON_YEARS} years of the first event.`);
  }
  const impossible = whyImpossible(rule, start, until);
  if (impossible !== undefined) throw new RecurrenceError(impossible);
  return {
    rule: spec.rrule,
    dtstart: wallToEpoch(start),
    until: until ? wallToEpoch(until) : null,
    before: wallToEpoch(horizon),
    max: o.maxOccurrences,
  };
}

const horizonOf = (start: Wall) => makeWall(start.y + HORIZON_YEARS, start.mo, start.d, start.h, start.mi, start.s);

/** The series from rrule's dates: the first event kept, RDATEs added, EXDATEs removed, the limits checked. */
function assembleSeries(p: SeriesPattern, o: ExpandOptions, dates: readonly number[]): Wall[] {
  const { start, zone, spec } = p;
  const max = o.maxOccurrences;
  const horizon = horizonOf(start);
  if (dates.length > max) throw tooMany(max);
  const count = readRule(spec.rrule).count;
  if (count !== undefined && dates.length < count) {
    throw new RecurrenceError(
      `The rule does not make its COUNT of occurrences within ${HORIZON_YEARS} years of the first event.`,
    );
  }
  const first = formatWall(start);
  const starts = new Set([first, ...dates.map((d) => formatWall(wallFromEpoch(d)))]);
  for (const r of spec.rdates) {
    const { wall, dateOnly } = wallOf(r, zone);
    const w = dateOnly ? { ...wall, h: start.h, mi: start.mi, s: start.s } : wall;
    const text = formatWall(w);
    if (text < first)
      throw new RecurrenceError(`RDATE ${r} is before the first event: move the event's start instead.`);
    if (wallToEpoch(w) > wallToEpoch(horizon))
      throw new RecurrenceError(`RDATE ${r} is more than ${HORIZON_YEARS} years after the first event.`);
    starts.add(text);
  }
  for (const x of spec.exdates) {
    const { wall, dateOnly } = wallOf(x, zone);
    const day = formatWall(wall).slice(0, 10);
    const removed = dateOnly ? [...starts].filter((s) => s.startsWith(day)) : [formatWall(wall)];
    if (removed.includes(first))
      throw new RecurrenceError(`EXDATE ${x} would remove the first event: move the event's start instead.`);
    for (const s of removed) starts.delete(s);
  }
  if (starts.size > max) throw tooMany(max);
  return [...starts].sort().map(parseWall);
}

/**
 * The local start of every occurrence of a series, sorted, the first event's own start first (RFC 5545: DTSTART is
 * always an occurrence). Throws `RecurrenceError` when the series would exceed `maxOccurrences`, reach past
 * `HORIZON_YEARS`, never occur, or EXDATE would remove the first event. Runs rrule on this thread (tests, tools).
 * @example expandSeries({ start: makeWall(2018, 1, 12, 10), zone: 'Europe/Paris', spec }, { maxOccurrences: 730 })
 */
export function expandSeries(p: SeriesPattern, o: ExpandOptions): Wall[] {
  return assembleSeries(p, o, expandHere(expansionRequest(p, o)));
}

/**
 * `expandSeries` with rrule in the worker thread: the event loop keeps serving while a rule expands, and a rule
 * over `EXPANSION_BUDGET_MS` is refused.
 */
export async function expandSeriesOffThread(
  p: SeriesPattern,
  o: ExpandOptions,
  thread: RruleThread = sharedThread,
): Promise<Wall[]> {
  const result = await thread.expand(expansionRequest(p, o));
  switch (result.kind) {
    case 'expanded':
      return assembleSeries(p, o, result.dates);
    // rrule checks value ranges when it builds the rule; parseRule refuses them first, so this is a last guard.
    case 'invalid':
      throw new RecurrenceError(`The rule is not valid: ${result.message}`);
    case 'timeout':
      throw overBudget();
  }
}
