import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeWall, wallToEpoch, type Wall } from '../time/index.ts';
import { whyImpossible } from './impossible.ts';
import { parseRule } from './rule-parts.ts';
import { rrule } from './rule.ts';

/**
 * The reference: rrule's own expansion, run to its last year (9999) from a start late enough that the walk is at most
 * a century of periods. A rule the screen calls impossible must make no date there; one it lets through must make one.
 */
function firstDate(text: string, start: Wall): Date | null {
  const options = rrule.RRule.parseString(text);
  const rule = new rrule.RRule({ ...options, dtstart: new Date(wallToEpoch(start)), count: 1, until: null });
  return rule.all()[0] ?? null;
}

const nonZero = (max: number) => fc.integer({ min: -max, max }).filter((n) => n !== 0);
const list = <T>(arb: fc.Arbitrary<T>) => fc.uniqueArray(arb, { minLength: 1, maxLength: 3 });
const weekday = fc.constantFrom('MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU');

/** Rules of every frequency mixing the day-narrowing parts, as RFC 5545 allows them together. */
const ruleText = fc.constantFrom('DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY').chain((freq) =>
  fc
    .record({
      interval: fc.integer({ min: 1, max: freq === 'MONTHLY' ? 13 : freq === 'DAILY' ? 7 : 4 }),
      byMonth: fc.option(list(fc.integer({ min: 1, max: 12 })), { nil: undefined }),
      byMonthDay: freq === 'WEEKLY' ? fc.constant(undefined) : fc.option(list(nonZero(31)), { nil: undefined }),
      byYearDay: freq === 'YEARLY' ? fc.option(list(nonZero(366)), { nil: undefined }) : fc.constant(undefined),
      byWeekNo: freq === 'YEARLY' ? fc.option(list(nonZero(53)), { nil: undefined }) : fc.constant(undefined),
      byDay: fc.option(
        list(
          fc.tuple(
            freq === 'MONTHLY' || freq === 'YEARLY'
              ? fc.option(nonZero(6), { nil: undefined })
              : fc.constant(undefined),
            weekday,
          ),
        ),
        { nil: undefined },
      ),
      wkst: fc.option(weekday, { nil: undefined }),
    })
    .map((r) => {
      // Weekdays with and without ordinals are not mixed (rule-parts.ts refuses that): all take the first one's kind.
      const ordinals = r.byWeekNo === undefined && r.byDay?.[0]?.[0] !== undefined;
      const byDay = r.byDay?.map(([n, d]) => (ordinals ? `${n ?? 1}${d}` : d));
      return [
        `FREQ=${freq}`,
        `INTERVAL=${r.interval}`,
        'COUNT=1',
        r.byMonth && `BYMONTH=${r.byMonth.join(',')}`,
        r.byMonthDay && `BYMONTHDAY=${r.byMonthDay.join(',')}`,
        r.byYearDay && `BYYEARDAY=${r.byYearDay.join(',')}`,
        r.byWeekNo && `BYWEEKNO=${r.byWeekNo.join(',')}`,
        byDay && `BYDAY=${[...new Set(byDay)].join(',')}`,
        r.wkst && `WKST=${r.wkst}`,
      ]
        .filter(Boolean)
        .join(';');
    }),
);

const lateStart = fc
  .record({
    y: fc.integer({ min: 9904, max: 9940 }),
    mo: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
  })
  .map(({ y, mo, d }) => makeWall(y, mo, d, 10));

describe('whyImpossible (rules that never make a date)', () => {
  it('never calls a rule impossible that rrule finds a date for, and with INTERVAL=1 calls every dateless rule impossible', () => {
    fc.assert(
      fc.property(ruleText, lateStart, (text, start) => {
        const rule = parseRule(text);
        const verdict = whyImpossible(rule, start, undefined);
        const found = firstDate(text, start);
        if (verdict !== undefined) expect(found).toBeNull();
        // With a larger INTERVAL only some kinds of year are reached before 9999: the screen may let such a rule
        // through (expansion's budget then refuses it), but it must never refuse a possible one.
        else if (rule.interval === 1) expect(found).not.toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=2'],
    ['FREQ=YEARLY;BYMONTH=4;BYMONTHDAY=31;COUNT=2'],
    ['FREQ=YEARLY;BYYEARDAY=1;BYMONTH=3;COUNT=2'],
    ['FREQ=YEARLY;BYWEEKNO=20;BYMONTH=1;COUNT=2'],
    ['FREQ=MONTHLY;BYDAY=6MO;COUNT=2'],
    ['FREQ=MONTHLY;BYMONTH=2;COUNT=2'],
    ['FREQ=DAILY;INTERVAL=7;BYDAY=MO;COUNT=2'],
    ['FREQ=MONTHLY;INTERVAL=12;BYMONTH=2;COUNT=2'],
  ])('refuses %s from Saturday 31 January 2026', (text) => {
    expect(whyImpossible(parseRule(text), makeWall(2026, 1, 31, 10), undefined)).toMatch(/never occurs/);
  });

  it('refuses an UNTIL before the first event and lets a rare but real date through', () => {
    const start = makeWall(2026, 1, 1, 10);
    expect(whyImpossible(parseRule('FREQ=DAILY;UNTIL=20251231'), start, makeWall(2025, 12, 31, 23, 59, 59))).toMatch(
      /UNTIL is before/,
    );
    expect(
      whyImpossible(parseRule('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO;COUNT=2'), start, undefined),
    ).toBeUndefined();
  });
});
