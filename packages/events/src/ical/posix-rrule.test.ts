import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RRule } from 'rrule';
import { posixChanges, type PosixDate, type PosixRule } from '../time/posix-tz.ts';
import { posixRrule } from './posix-rrule.ts';

const HOUR = 3600;

/** The local wall times (as UTC epochs) the rule's change happens at in 2001-2040, from the footer arithmetic. */
function footerWalls(rule: PosixRule): number[] {
  // Standard offset 0: the start change's wall time is its UTC instant.
  const tz = {
    std: { abbr: 'S', offset: 0 },
    dst: { abbr: 'D', offset: HOUR, start: rule, end: { date: { kind: 'julian0', day: 0 } as const, time: 0 } },
  };
  return Array.from({ length: 40 }, (_, i) => posixChanges(tz, 2001 + i).find((c) => c.isDst)!.at);
}

/** The same wall times from the RRULE, as a client expands it from the first one. */
function rruleWalls(text: string, first: number): number[] {
  const rule = RRule.fromString(
    `DTSTART:${new Date(first).toISOString().replace(/[-:]/g, '').slice(0, 15)}Z\nRRULE:${text}`,
  );
  return rule
    .between(new Date(first), new Date(Date.UTC(2041, 0, 1)), true)
    .map((d) => d.getTime())
    .slice(0, 40);
}

describe('posixRrule', () => {
  it('writes the common forms as RFC 5545 shows them', () => {
    expect(posixRrule({ date: { kind: 'month', month: 3, week: 2, weekday: 0 }, time: 2 * HOUR })).toBe(
      'FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
    );
    expect(posixRrule({ date: { kind: 'month', month: 10, week: 5, weekday: 0 }, time: 3 * HOUR })).toBe(
      'FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    );
    expect(posixRrule({ date: { kind: 'julian1', day: 60 }, time: 0 })).toBe('FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=1');
    expect(posixRrule({ date: { kind: 'julian0', day: 59 }, time: 0 })).toBe('FREQ=YEARLY;BYYEARDAY=60');
  });

  it('moves a change at 24:00 or later, or before 00:00, to the neighbouring day of the week', () => {
    // Israel: the Friday after the fourth Thursday of March; Nuuk: the Saturday before the last Sunday.
    expect(posixRrule({ date: { kind: 'month', month: 3, week: 4, weekday: 4 }, time: 26 * HOUR })).toBe(
      'FREQ=YEARLY;BYMONTH=3;BYDAY=FR;BYMONTHDAY=23,24,25,26,27,28,29',
    );
    expect(posixRrule({ date: { kind: 'month', month: 3, week: 5, weekday: 0 }, time: -HOUR })).toBe(
      'FREQ=YEARLY;BYMONTH=3;BYDAY=SA;BYMONTHDAY=24,25,26,27,28,29,30',
    );
  });

  it('declines what one RRULE cannot say: a shift out of the month, across 29 February, past the year', () => {
    // Cairo's end: the day after the last Thursday of October can be 1 November.
    expect(posixRrule({ date: { kind: 'month', month: 10, week: 5, weekday: 4 }, time: 24 * HOUR })).toBeUndefined();
    expect(posixRrule({ date: { kind: 'month', month: 3, week: 1, weekday: 0 }, time: -HOUR })).toBeUndefined();
    expect(posixRrule({ date: { kind: 'julian1', day: 59 }, time: 24 * HOUR })).toBeUndefined();
    expect(posixRrule({ date: { kind: 'month', month: 2, week: 5, weekday: 0 }, time: -HOUR })).toBeUndefined();
    expect(posixRrule({ date: { kind: 'julian0', day: 365 }, time: 0 })).toBeUndefined();
  });

  const dates: fc.Arbitrary<PosixDate> = fc.oneof(
    fc.record({
      kind: fc.constant('month' as const),
      month: fc.integer({ min: 1, max: 12 }),
      week: fc.integer({ min: 1, max: 5 }),
      weekday: fc.integer({ min: 0, max: 6 }),
    }),
    fc.record({ kind: fc.constant('julian1' as const), day: fc.integer({ min: 1, max: 365 }) }),
    fc.record({ kind: fc.constant('julian0' as const), day: fc.integer({ min: 0, max: 365 }) }),
  );
  const times = fc.oneof(
    fc.integer({ min: 0, max: 23 }).map((h) => h * HOUR),
    fc.integer({ min: -167 * 60, max: 167 * 60 }).map((m) => m * 60),
  );

  it("expands (with the rrule library) to the footer's dates in every year 2001-2040, whenever it answers", () => {
    fc.assert(
      fc.property(dates, times, (date, time) => {
        const rule = { date, time };
        const text = posixRrule(rule);
        fc.pre(text !== undefined);
        const walls = footerWalls(rule);
        expect(rruleWalls(text!, walls[0]!)).toEqual(walls);
      }),
      { numRuns: 300 },
    );
  });
});
