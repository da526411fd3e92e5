import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseDateTime, formatWall, utcToWall, wallToUtc, makeWall } from './index.ts';

const NOW = Date.UTC(2018, 0, 10, 15, 30, 0); // Wednesday 2018-01-10 15:30 UTC
const at = (input: string, zone = 'UTC'): string | undefined => {
  const ms = parseDateTime(input, zone, NOW);
  return ms === undefined ? undefined : formatWall(utcToWall(ms, zone));
};

describe('parseDateTime', () => {
  it.each([
    ['2018-01-01', '2018-01-01 00:00:00'],
    ['2018-01-01 4pm', '2018-01-01 16:00:00'],
    ['2018-01-01 15:04:05', '2018-01-01 15:04:05'],
    ['tomorrow 9am', '2018-01-11 09:00:00'],
    ['tomorrow 23:59:59', '2018-01-11 23:59:59'],
    ['yesterday', '2018-01-09 00:00:00'],
    ['next wednesday 4pm', '2018-01-17 16:00:00'],
    ['friday', '2018-01-12 00:00:00'],
    ['last monday', '2018-01-08 00:00:00'],
    ['+5 days 11am', '2018-01-15 11:00:00'],
    ['+24 months', '2020-01-10 15:30:00'],
    ['2 days ago', '2018-01-08 15:30:00'],
    ['January 5 2018 10:00', '2018-01-05 10:00:00'],
    ['5 March', '2018-03-05 00:00:00'],
    ['2018-01-01T10:00:00Z', '2018-01-01 10:00:00'],
    ['2018-01-01T10:00:00+02:00', '2018-01-01 08:00:00'],
    ['@1514800000', '2018-01-01 09:46:40'],
    ['1514800000', '2018-01-01 09:46:40'],
    ['now', '2018-01-10 15:30:00'],
    ['2018-02-30', '2018-03-02 00:00:00'], // PHP overflows days up to 31 into the next month
  ])('reads %s as %s', (input, expected) => {
    expect(at(input)).toBe(expected);
  });

  it.each(['', 'before my birthday', 'not a strtotime parsable string', 'foo', '2018-02-32', '25:00', '2018-13-01'])(
    'rejects %j',
    (input) => {
      expect(at(input)).toBeUndefined();
    },
  );

  it('reads zone-less input as wall time in the given zone', () => {
    expect(formatWall(utcToWall(parseDateTime('2018-01-01 09:00:00', 'America/New_York', NOW)!, 'UTC'))).toBe(
      '2018-01-01 14:00:00',
    );
  });

  it('round-trips any MySQL date-time it formats, in any zone', () => {
    const zones = ['UTC', 'America/New_York', 'Europe/Paris', 'Asia/Kolkata', 'UTC+5', 'UTC-3:30'];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2090, 0, 1) }),
        fc.constantFrom(...zones),
        (ms, zone) => {
          const sec = Math.floor(ms / 1000) * 1000;
          const wall = utcToWall(sec, zone);
          const parsed = parseDateTime(formatWall(wall), zone, NOW)!;
          // A wall time in a DST fold maps to one of its two instants; both show the same wall time.
          expect(formatWall(utcToWall(parsed, zone))).toBe(formatWall(wall));
        },
      ),
    );
  });

  it('normalises overflowing wall fields like PHP', () => {
    expect(formatWall(makeWall(2018, 1, 31 + 1))).toBe('2018-02-01 00:00:00');
    expect(wallToUtc(makeWall(2018, 1, 1), 'UTC')).toBe(Date.UTC(2018, 0, 1));
  });
});
