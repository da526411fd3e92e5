// The RRULE (RFC 5545 §3.3.10) of a POSIX TZ change, for the DAYLIGHT/STANDARD pair that states a zone's current
// rule once (RFC 5545 §3.6.5's examples). The rule recurs on the local *date* of the change; the time of day is the
// observance's DTSTART. A change at 24:00 or later, or before 00:00, falls on a neighbouring day, so
// `M3.4.4/26` (the day after the fourth Thursday, 02:00) becomes Fridays on the 23rd-29th.
import type { PosixRule } from '../time/posix-tz.ts';

const DAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;
const DAY_S = 86_400;
/** Days in each month of a common year. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i).join(',');

/** Month and day of the `n`th day (1-365) of a year without 29 February. */
function monthDay(n: number): [number, number] {
  const d = new Date(Date.UTC(2001, 0, n));
  return [d.getUTCMonth() + 1, d.getUTCDate()];
}

/**
 * The yearly RRULE that repeats `rule`'s date, or `undefined` when no single RRULE says it (a shifted change that
 * can leave its month, a shifted day-of-year rule): the caller then writes each year's change explicitly.
 * @example posixRrule({ date: { kind: 'month', month: 3, week: 5, weekday: 0 }, time: 7200 }) // 'FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU'
 */
export function posixRrule(rule: PosixRule): string | undefined {
  const shift = Math.floor(rule.time / DAY_S);
  const { date } = rule;
  switch (date.kind) {
    case 'month': {
      if (shift === 0)
        return `FREQ=YEARLY;BYMONTH=${date.month};BYDAY=${date.week === 5 ? -1 : date.week}${DAYS[date.weekday]!}`;
      const weekday = DAYS[(((date.weekday + shift) % 7) + 7) % 7]!;
      // The days of the month the unshifted date can fall on, moved by `shift`; counted from the end for "last".
      const [from, to] =
        date.week === 5 ? [-7 + shift, -1 + shift] : [7 * (date.week - 1) + 1 + shift, 7 * date.week + shift];
      const length = MONTH_DAYS[date.month - 1]!;
      // Counted from the start: ical.js expands no negative BYMONTHDAY with BYDAY (so no last-week rule in February).
      const [first, last] = date.week === 5 ? [length + 1 + from, length + 1 + to] : [from, to];
      const inMonth = first >= 1 && last <= length && (date.week !== 5 || date.month !== 2);
      return inMonth
        ? `FREQ=YEARLY;BYMONTH=${date.month};BYDAY=${weekday};BYMONTHDAY=${range(first, last)}`
        : undefined;
    }
    case 'julian1': {
      // 28 February and 1 March are neighbours only in common years: a shift across them has no fixed date.
      const day = date.day + shift;
      if (day < 1 || day > 365 || date.day <= 59 !== day <= 59) return undefined;
      const [month, dayOfMonth] = monthDay(day);
      return `FREQ=YEARLY;BYMONTH=${month};BYMONTHDAY=${dayOfMonth}`;
    }
    case 'julian0': {
      // Day 365 exists only in leap years, and a shift can cross into the next year.
      const day = date.day + shift;
      return day >= 0 && day <= 364 && shift === 0 ? `FREQ=YEARLY;BYYEARDAY=${day + 1}` : undefined;
    }
  }
}
