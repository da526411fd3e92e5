// Rules that can never make a date (`BYMONTH=2;BYMONTHDAY=30`), decided from the calendar rather than by running the
// rule: rrule would walk period by period to the year 9999 looking for one. Only *year types* matter for the
// BYxxx filters (leap or not × the weekday of 1 January: 14 kinds of year, all of which recur within 28 years), so
// every candidate day of those years (21 kinds with the year before's length, for week numbers) is tested once: 14 × 366 cheap checks, whatever the rule.
import { wallToEpoch, type Wall } from '../time/index.ts';
import { WEEKDAYS, type ByDay, type Rule } from './rule-parts.ts';

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** One kind of year: leap or not, the weekday of 1 January (0 = Monday), and whether the year before was leap. */
interface YearType {
  readonly leap: boolean;
  readonly jan1: number;
  readonly prevLeap: boolean;
}

/** A day of a year type, with what every BYxxx filter looks at. */
interface Day {
  readonly month: number;
  readonly monthDay: number;
  readonly monthLen: number;
  readonly yearDay: number;
  readonly yearLen: number;
  readonly weekday: number;
  readonly weekNos: readonly number[];
}

/** Weekday (0 = Monday) of a proleptic Gregorian date. */
const weekdayOf = (y: number, mo: number, d: number) => (new Date(Date.UTC(y, mo - 1, d)).getUTCDay() + 6) % 7;

/** Weeks in a year (RFC 5545: week 1 holds at least 4 of its days) and the day (0-based, may be < 0) week 1 starts. */
function weekYear(len: number, jan1: number, wkst: number): { weeks: number; start: number } {
  const firstWeek = (7 - jan1 + wkst) % 7;
  const lead = (jan1 - wkst + 7) % 7;
  const weekYearLen = firstWeek >= 4 ? len + lead : len - firstWeek;
  return {
    weeks: Math.floor(weekYearLen / 7) + Math.floor((weekYearLen % 7) / 4),
    start: firstWeek >= 4 ? -lead : firstWeek,
  };
}

/**
 * The BYWEEKNO values a day of the year matches, as rrule (python-dateutil's algorithm) numbers them: days before
 * week 1 are in the previous year's last week, days after the last week in week 1 of the next year.
 */
function weekNumbers(yt: YearType, yearDay0: number, wkst: number): number[] {
  const { weeks, start } = weekYear(yt.leap ? 366 : 365, yt.jan1, wkst);
  if (yearDay0 < start) {
    const prevLen = yt.prevLeap ? 366 : 365;
    return [weekYear(prevLen, (yt.jan1 - (prevLen % 7) + 7) % 7, wkst).weeks, -1];
  }
  const w = Math.floor((yearDay0 - start) / 7) + 1;
  return w > weeks ? [1] : [w, w - weeks - 1];
}

function daysOf(yt: YearType, wkst: number): Day[] {
  const out: Day[] = [];
  let yearDay = 0;
  for (let m = 1; m <= 12; m++) {
    const monthLen = m === 2 && yt.leap ? 29 : MONTH_DAYS[m - 1]!;
    for (let d = 1; d <= monthLen; d++, yearDay++) {
      out.push({
        month: m,
        monthDay: d,
        monthLen,
        yearDay: yearDay + 1,
        yearLen: yt.leap ? 366 : 365,
        weekday: (yt.jan1 + yearDay) % 7,
        weekNos: weekNumbers(yt, yearDay, wkst),
      });
    }
  }
  return out;
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const matchesOrdinal = (n: number, pos: number, len: number) => (n > 0 ? n === pos : -n === len - pos + 1);

/** Whether `day` passes BYDAY: ordinals count within the month (MONTHLY, YEARLY with BYMONTH) or else the year. */
function passesByDay(rule: Rule, byDay: readonly ByDay[], day: Day): boolean {
  const inMonth = rule.freq === 'MONTHLY' || (rule.freq === 'YEARLY' && rule.byMonth !== undefined);
  const [pos, len] = inMonth ? [day.monthDay, day.monthLen] : [day.yearDay, day.yearLen];
  return byDay.some(
    (b) =>
      WEEKDAYS.indexOf(b.weekday) === day.weekday &&
      (b.ordinal === undefined || Math.abs(b.ordinal) === Math.ceil((b.ordinal > 0 ? pos : len - pos + 1) / 7)),
  );
}

/** Whether a day passes every BYxxx filter of the rule (BYSETPOS aside: it only narrows what passes). */
function passes(rule: Rule, day: Day, months: ReadonlySet<number> | undefined): boolean {
  if (months && !months.has(day.month)) return false;
  if (rule.byMonthDay && !rule.byMonthDay.some((n) => matchesOrdinal(n, day.monthDay, day.monthLen))) return false;
  if (rule.byYearDay && !rule.byYearDay.some((n) => matchesOrdinal(n, day.yearDay, day.yearLen))) return false;
  if (rule.byWeekNo && !rule.byWeekNo.some((n) => day.weekNos.includes(n))) return false;
  return rule.byDay === undefined || passesByDay(rule, rule.byDay, day);
}

/** The months the rule can produce: BYMONTH, narrowed for MONTHLY to those its INTERVAL reaches from the start. */
function reachableMonths(rule: Rule, start: Wall): Set<number> | undefined {
  if (rule.freq !== 'MONTHLY' && rule.byMonth === undefined) return undefined;
  const step = rule.freq === 'MONTHLY' ? rule.interval : 1;
  const months = new Set<number>();
  for (let k = 0; k < 12; k++) months.add(((start.mo - 1 + k * step) % 12) + 1);
  return new Set([...months].filter((m) => rule.byMonth === undefined || rule.byMonth.includes(m)));
}

/**
 * The rule with the parts RFC 5545 takes from DTSTART when none narrows the period (as rrule does): a MONTHLY or
 * YEARLY rule without BYxxx days repeats the first event's day of the month (and month), a WEEKLY one its weekday.
 */
function withImpliedParts(rule: Rule, start: Wall): Rule {
  if (rule.byWeekNo || rule.byYearDay || rule.byMonthDay || rule.byDay) return rule;
  switch (rule.freq) {
    case 'YEARLY':
      return { ...rule, byMonthDay: [start.d], byMonth: rule.byMonth ?? [start.mo] };
    case 'MONTHLY':
      return { ...rule, byMonthDay: [start.d] };
    case 'WEEKLY':
      return { ...rule, byDay: [{ weekday: WEEKDAYS[weekdayOf(start.y, start.mo, start.d)]! }] };
    case 'DAILY':
      return rule;
  }
}

/**
 * Why a rule can never make a date after its first event, or undefined when it can (or may: this is a fast screen
 * that never refuses a possible rule; expansion's own budget catches the rest).
 * @example whyImpossible(parseRule('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=2'), makeWall(2026, 1, 1)) // 'BYMONTH…'
 */
export function whyImpossible(sent: Rule, start: Wall, until: Wall | undefined): string | undefined {
  const rule = withImpliedParts(sent, start);
  if (until !== undefined && wallToEpoch(until) < wallToEpoch(start)) return 'UNTIL is before the first event.';
  const wkst = WEEKDAYS.indexOf(rule.wkst ?? 'MO');
  // A YEARLY rule with an even INTERVAL may never reach a year divisible by 4 (century years aside: they are not
  // leap, which only removes leap years, so the screen never errs on the refusing side).
  const leapKinds = rule.freq === 'YEARLY' && start.y % gcd(rule.interval, 4) !== 0 ? [false] : [false, true];
  // A DAILY rule whose INTERVAL is a multiple of 7 always lands on the first event's weekday.
  const sameWeekday =
    rule.freq === 'DAILY' && rule.interval % 7 === 0 ? weekdayOf(start.y, start.mo, start.d) : undefined;
  const months = reachableMonths(rule, start);
  for (const leap of leapKinds) {
    for (const prevLeap of leap ? [false] : [false, true])
      for (let jan1 = 0; jan1 < 7; jan1++) {
        const found = daysOf({ leap, jan1, prevLeap }, wkst).some(
          (day) => (sameWeekday === undefined || day.weekday === sameWeekday) && passes(rule, day, months),
        );
        if (found) return undefined;
      }
  }
  return 'No date satisfies BYMONTH, BYMONTHDAY, BYYEARDAY, BYWEEKNO and BYDAY together (with this INTERVAL): the rule never occurs.';
}
