import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRule, RulePartError, WEEKDAYS } from './rule-parts.ts';

// The reference: RFC 5545 §3.3.10's value ranges, written out as a table rather than derived from the parser.
const RANGES = {
  BYMONTHDAY: { min: 1, max: 31, signed: true },
  BYYEARDAY: { min: 1, max: 366, signed: true },
  BYWEEKNO: { min: 1, max: 53, signed: true },
  BYMONTH: { min: 1, max: 12, signed: false },
  BYSETPOS: { min: 1, max: 366, signed: true },
} as const;
const FREQS = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;

/** The part a rule is refused for, or undefined when it is valid. */
function refusedPart(value: string): string | undefined {
  try {
    parseRule(value);
    return undefined;
  } catch (err) {
    if (err instanceof RulePartError) return err.part;
    throw err;
  }
}

describe('parseRule (RFC 5545 RRULE parts)', () => {
  it('accepts exactly the integers RFC 5545 allows in each BYxxx list', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...(Object.keys(RANGES) as Array<keyof typeof RANGES>)),
        fc.integer({ min: -400, max: 400 }),
        (part, n) => {
          const { min, max, signed } = RANGES[part];
          const inRange = (signed ? Math.abs(n) : n) >= min && (signed ? Math.abs(n) : n) <= max;
          // YEARLY allows every BYxxx part; BYSETPOS needs another one beside it.
          const rule = `FREQ=YEARLY;COUNT=2;${part}=${n}${part === 'BYSETPOS' ? ';BYMONTH=1' : ''}`;
          expect(refusedPart(rule)).toBe(inRange ? undefined : part);
        },
      ),
    );
  });

  it('allows BYDAY ordinals ±1 to ±53 only in MONTHLY and YEARLY rules without BYWEEKNO', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FREQS),
        fc.integer({ min: -60, max: 60 }),
        fc.constantFrom(...WEEKDAYS),
        fc.boolean(),
        (freq, n, day, weekNo) => {
          const rule = `FREQ=${freq};COUNT=2;BYDAY=${n}${day}${weekNo ? ';BYWEEKNO=1' : ''}`;
          const weekNoRefused = weekNo && freq !== 'YEARLY';
          const ordinalOk =
            Math.abs(n) >= 1 && Math.abs(n) <= 53 && (freq === 'MONTHLY' || freq === 'YEARLY') && !weekNo;
          expect(refusedPart(rule)).toBe(weekNoRefused ? 'BYWEEKNO' : ordinalOk ? undefined : 'BYDAY');
        },
      ),
    );
  });

  it('reads every part into the typed rule', () => {
    expect(
      parseRule(
        'FREQ=MONTHLY;INTERVAL=2;BYDAY=1MO,-1FR,+2TU;BYMONTHDAY=-1,15;BYMONTH=1,12;BYSETPOS=-1;WKST=SU;UNTIL=20300101T100000Z',
      ),
    ).toEqual({
      freq: 'MONTHLY',
      interval: 2,
      until: '20300101T100000Z',
      byDay: [
        { weekday: 'MO', ordinal: 1 },
        { weekday: 'FR', ordinal: -1 },
        { weekday: 'TU', ordinal: 2 },
      ],
      byMonthDay: [-1, 15],
      byMonth: [1, 12],
      bySetPos: [-1],
      wkst: 'SU',
    });
    expect(parseRule('FREQ=YEARLY;COUNT=3;BYWEEKNO=-53,1;BYYEARDAY=-366,1;BYDAY=MO')).toEqual({
      freq: 'YEARLY',
      interval: 1,
      count: 3,
      byWeekNo: [-53, 1],
      byYearDay: [-366, 1],
      byDay: [{ weekday: 'MO' }],
    });
  });

  it.each([
    ['FREQ=WEEKLY;WKST=XX;COUNT=3', 'WKST'],
    ['FREQ=FORTNIGHTLY;COUNT=3', 'FREQ'],
    ['FREQ=HOURLY;COUNT=3', 'FREQ'],
    ['COUNT=3', 'FREQ'],
    ['FREQ=DAILY;COUNT=0', 'COUNT'],
    ['FREQ=DAILY;COUNT=-1', 'COUNT'],
    ['FREQ=DAILY;COUNT=2;INTERVAL=0', 'INTERVAL'],
    ['FREQ=DAILY;COUNT=2;UNTIL=20300101', 'COUNT'],
    ['FREQ=DAILY;UNTIL=20300230', 'UNTIL'],
    ['FREQ=DAILY;UNTIL=2030-01-01', 'UNTIL'],
    ['FREQ=DAILY;UNTIL=20300101T250000Z', 'UNTIL'],
    ['FREQ=DAILY;COUNT=2;COUNT=3', 'COUNT'],
    ['FREQ=DAILY;COUNT=2;BYHOUR=24', 'BYHOUR'],
    ['FREQ=DAILY;COUNT=2;BYHOUR=4', 'BYHOUR'],
    ['FREQ=DAILY;COUNT=2;BYMINUTE=60', 'BYMINUTE'],
    ['FREQ=DAILY;COUNT=2;BYSECOND=61', 'BYSECOND'],
    ['FREQ=DAILY;COUNT=2;BYMONTHDAY=0', 'BYMONTHDAY'],
    ['FREQ=WEEKLY;COUNT=2;BYMONTHDAY=1', 'BYMONTHDAY'],
    ['FREQ=MONTHLY;COUNT=2;BYYEARDAY=1', 'BYYEARDAY'],
    ['FREQ=MONTHLY;COUNT=2;BYWEEKNO=1', 'BYWEEKNO'],
    ['FREQ=MONTHLY;COUNT=2;BYSETPOS=1', 'BYSETPOS'],
    ['FREQ=MONTHLY;COUNT=2;BYDAY=MO,', 'BYDAY'],
    ['FREQ=MONTHLY;COUNT=2;BYDAY=-MO', 'BYDAY'],
    ['FREQ=MONTHLY;COUNT=2;BYDAY=MO,1FR', 'BYDAY'],
    ['FREQ=MONTHLY;COUNT=2;BYMONTH=13', 'BYMONTH'],
    ['FREQ=MONTHLY;COUNT=2;X-NAME=1', 'X-NAME'],
    ['FREQ=MONTHLY;COUNT=2;;BYMONTH=1', 'RRULE'],
    ['FREQ=MONTHLY;COUNT', 'COUNT'],
  ])('refuses %s, naming %s', (rule, part) => {
    expect(refusedPart(rule)).toBe(part);
  });
});
