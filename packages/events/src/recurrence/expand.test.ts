import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatWall, makeWall, utcToWall, wallToEpoch, wallToUtc, type Wall } from '../time/index.ts';
import { expandSeries } from './expand.ts';
import { parseRecurrence, RecurrenceError } from './rule.ts';

const DAY = 86_400_000;
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
const weekdayOf = (w: Wall) => (new Date(Date.UTC(w.y, w.mo - 1, w.d)).getUTCDay() + 6) % 7; // Monday 0
const dayIndex = (w: Wall) => Math.floor(Date.UTC(w.y, w.mo - 1, w.d) / DAY);

interface NaiveRule {
  freq: 'DAILY' | 'WEEKLY' | 'MONTHLY';
  interval: number;
  byday: number[];
  monthday?: number;
  count?: number;
  untilDay?: Wall;
}

/**
 * The reference: walks day by day from the start's date and keeps the days the rule names, at the start's time of
 * day; the first event's own start always comes first (RFC 5545 DTSTART).
 */
function naive(start: Wall, r: NaiveRule, exdays: Set<string>): string[] {
  const out: string[] = [];
  let made = 0;
  const startWeek = dayIndex(start) - weekdayOf(start); // weeks start on Monday (WKST=MO)
  for (let i = 0; i < 40_000; i++) {
    const d = makeWall(start.y, start.mo, start.d + i, start.h, start.mi, start.s);
    if (r.untilDay !== undefined && formatWall(d).slice(0, 10) > formatWall(r.untilDay).slice(0, 10)) break;
    if (r.count !== undefined && made >= r.count) break;
    let hit: boolean;
    if (r.freq === 'DAILY') hit = i % r.interval === 0;
    else if (r.freq === 'WEEKLY')
      hit = Math.floor((dayIndex(d) - startWeek) / 7) % r.interval === 0 && r.byday.includes(weekdayOf(d));
    else hit = ((d.y - start.y) * 12 + d.mo - start.mo) % r.interval === 0 && d.d === r.monthday;
    if (!hit) continue;
    made++;
    if (i > 0 && !exdays.has(formatWall(d).slice(0, 10))) out.push(formatWall(d));
  }
  return [formatWall(start), ...out];
}

const ZONES = ['UTC', 'America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'America/Santiago', 'Asia/Kolkata'];
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const icalDay = (w: Wall) => `${pad(w.y, 4)}${pad(w.mo)}${pad(w.d)}`;

const ruleArb = fc.record({
  freq: fc.constantFrom('DAILY' as const, 'WEEKLY' as const, 'MONTHLY' as const),
  interval: fc.integer({ min: 1, max: 4 }),
  byday: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
  monthday: fc.integer({ min: 1, max: 28 }),
  end: fc.oneof(
    fc.record({ count: fc.integer({ min: 1, max: 60 }) }),
    fc.record({ untilDays: fc.integer({ min: 0, max: 800 }) }),
  ),
});

describe('expandSeries', () => {
  it('agrees with a day-by-day walk of the rule, at the series time of day in its zone across DST changes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4000 }),
        fc.integer({ min: 0, max: 23 }),
        fc.constantFrom(0, 30),
        fc.constantFrom(...ZONES),
        ruleArb,
        fc.array(fc.integer({ min: 1, max: 300 }), { maxLength: 4 }),
        (startDay, h, mi, zone, r, exOffsets) => {
          const start = makeWall(2016, 1, 1 + startDay, h, mi);
          const untilDay = 'untilDays' in r.end ? makeWall(start.y, start.mo, start.d + r.end.untilDays) : undefined;
          const rule: NaiveRule = {
            freq: r.freq,
            interval: r.interval,
            byday: r.byday,
            monthday: r.monthday,
            count: 'count' in r.end ? r.end.count : undefined,
            untilDay,
          };
          const parts = [`FREQ=${r.freq}`, `INTERVAL=${r.interval}`];
          if (r.freq === 'WEEKLY') parts.push(`BYDAY=${r.byday.map((d) => WEEKDAYS[d]).join(',')}`);
          if (r.freq === 'MONTHLY') parts.push(`BYMONTHDAY=${r.monthday}`);
          parts.push(rule.count !== undefined ? `COUNT=${rule.count}` : `UNTIL=${icalDay(untilDay!)}`);
          const exWalls = exOffsets.map((o) => makeWall(start.y, start.mo, start.d + o));
          const spec = parseRecurrence({ rrule: parts.join(';'), exdate: exWalls.map(icalDay) })!;
          const got = expandSeries({ start, zone, spec }, { maxOccurrences: 100_000 }).map(formatWall);
          expect(got).toEqual(naive(start, rule, new Set(exWalls.map((w) => formatWall(w).slice(0, 10)))));
          for (const text of got.slice(1)) {
            // Each occurrence is at the series' wall time in its zone, unless that time does not exist on its day
            // (a spring-forward gap), where it moves forward by the gap as a direct write would.
            const w = { ...start, y: +text.slice(0, 4), mo: +text.slice(5, 7), d: +text.slice(8, 10) };
            const shown = utcToWall(wallToUtc(w, zone), zone);
            const shift = wallToEpoch(shown) - wallToEpoch(w);
            expect(shift === 0 || (shift > 0 && shift <= 3_600_000)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps a weekly 10:00 meeting at 10:00 New York time on both sides of the March DST change', () => {
    const spec = parseRecurrence('RRULE:FREQ=WEEKLY;COUNT=3')!;
    const starts = expandSeries(
      { start: makeWall(2018, 3, 4, 10), zone: 'America/New_York', spec },
      { maxOccurrences: 10 },
    );
    expect(starts.map((w) => new Date(wallToUtc(w, 'America/New_York')).toISOString())).toEqual([
      '2018-03-04T15:00:00.000Z',
      '2018-03-11T14:00:00.000Z',
      '2018-03-18T14:00:00.000Z',
    ]);
  });

  it('adds RDATEs, removes EXDATEs and reads UTC values in the series zone', () => {
    const spec = parseRecurrence({
      rrule: 'FREQ=DAILY;COUNT=3',
      exdate: '20180113T100000',
      rdate: ['20180120T090000Z', '2018-01-25'],
    })!;
    const starts = expandSeries(
      { start: makeWall(2018, 1, 12, 10), zone: 'Europe/Paris', spec },
      { maxOccurrences: 10 },
    ).map(formatWall);
    expect(starts).toEqual([
      '2018-01-12 10:00:00',
      '2018-01-14 10:00:00',
      '2018-01-20 10:00:00',
      '2018-01-25 10:00:00',
    ]);
  });

  it('refuses a series one occurrence over the limit and accepts one at it', () => {
    const at = (count: number) =>
      expandSeries(
        { start: makeWall(2018, 1, 1), zone: 'UTC', spec: parseRecurrence(`FREQ=DAILY;COUNT=${count}`)! },
        { maxOccurrences: 5 },
      );
    expect(at(5)).toHaveLength(5);
    expect(() => at(6)).toThrow(/more than 5 occurrences/);
    const rdate = parseRecurrence({ rrule: 'FREQ=DAILY;COUNT=5', rdate: '20190101' })!;
    expect(() =>
      expandSeries({ start: makeWall(2018, 1, 1), zone: 'UTC', spec: rdate }, { maxOccurrences: 5 }),
    ).toThrow(RecurrenceError);
  });

  it('refuses rules that never end, never fill their COUNT, or remove the first event', () => {
    expect(() => parseRecurrence('FREQ=WEEKLY')).toThrow(/COUNT or UNTIL/);
    expect(() => parseRecurrence('FREQ=HOURLY;COUNT=2')).toThrow(/FREQ/);
    expect(() => parseRecurrence('FREQ=DAILY;COUNT=2;BYHOUR=3')).toThrow(/BYHOUR/);
    expect(() => parseRecurrence({ rrule: 'FREQ=DAILY;COUNT=2', exdate: '2018-02-30' })).toThrow(/EXDATE/);
    const never = parseRecurrence('FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30;COUNT=2')!;
    expect(() =>
      expandSeries({ start: makeWall(2018, 1, 1), zone: 'UTC', spec: never }, { maxOccurrences: 10 }),
    ).toThrow(/never occurs/);
    const rare = parseRecurrence('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=30')!;
    expect(() =>
      expandSeries({ start: makeWall(2018, 1, 1), zone: 'UTC', spec: rare }, { maxOccurrences: 100 }),
    ).toThrow(/COUNT of occurrences within 100 years/);
    const first = parseRecurrence({ rrule: 'FREQ=DAILY;COUNT=2', exdate: '20180101' })!;
    expect(() =>
      expandSeries({ start: makeWall(2018, 1, 1, 9), zone: 'UTC', spec: first }, { maxOccurrences: 10 }),
    ).toThrow(/first event/);
  });

  it('answers any rule text with occurrences or a RecurrenceError, never another failure', () => {
    const part = fc.oneof(
      fc
        .tuple(
          fc.constantFrom(
            'FREQ',
            'INTERVAL',
            'COUNT',
            'UNTIL',
            'BYDAY',
            'BYMONTHDAY',
            'BYMONTH',
            'BYYEARDAY',
            'BYWEEKNO',
            'BYSETPOS',
            'WKST',
            'BYHOUR',
            'X',
          ),
          fc.oneof(
            fc.constantFrom(
              'DAILY',
              'WEEKLY',
              'MONTHLY',
              'YEARLY',
              'MO',
              '1TU',
              '-1FR',
              '53MO',
              '0',
              '-0',
              '13',
              '366',
              '-400',
              '20180101',
              '20180101T100000Z',
              'x',
              '',
            ),
            fc.integer({ min: -500, max: 500 }).map(String),
          ),
        )
        .map(([k, v]) => `${k}=${v}`),
      fc.string({ maxLength: 8 }),
    );
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 5 }), fc.constantFrom(...ZONES), (parts, zone) => {
        const text = ['FREQ=WEEKLY', ...parts, 'COUNT=3'].join(';');
        try {
          const spec = parseRecurrence(text);
          if (spec) expandSeries({ start: makeWall(2018, 1, 1, 9), zone, spec }, { maxOccurrences: 50 });
        } catch (err) {
          expect(err).toBeInstanceOf(RecurrenceError);
        }
      }),
      { numRuns: 150 },
    );
  });
});
