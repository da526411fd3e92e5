import { describe, expect, it } from 'vitest';
import { formatWall, utcToWall, wallToUtc, zoneAbbr } from './index.ts';
import { parseWall } from './wall.ts';

const at = (utc: string) => Date.parse(`${utc.replace(' ', 'T')}Z`);
const toUtc = (wall: string, zone: string) => formatWall(utcToWall(wallToUtc(parseWall(wall), zone), 'UTC'));

describe('zones', () => {
  it.each([
    ['Australia/Sydney', '2032-02-14 08:30:00', 'AEDT'],
    ['Australia/Sydney', '2032-07-01 00:00:00', 'AEST'],
    ['Europe/Berlin', '2032-10-28 16:00:00', 'CEST'],
    ['Europe/Berlin', '2032-11-03 21:00:00', 'CET'],
    ['Asia/Kolkata', '2032-01-11 04:30:00', 'IST'],
    ['Asia/Kathmandu', '2032-01-11 04:15:00', '+0545'],
    ['America/St_Johns', '2032-01-11 13:30:00', 'NST'],
    ['America/New_York', '2032-03-14 07:30:00', 'EDT'],
    ['Europe/London', '2032-03-27 00:00:00', 'GMT'],
    ['EST', '2032-01-11 15:00:00', 'EST'],
    ['UTC', '2032-01-11 15:00:00', 'UTC'],
    ['europe/paris', '2032-01-11 15:00:00', 'CET'],
    ['UTC+5', '2032-01-11 15:00:00', 'UTC+5'],
  ])('names %s at %s UTC %s, as PHP does', (zone, utc, abbr) => {
    expect(zoneAbbr(zone, at(utc))).toBe(abbr);
  });

  it('moves a wall time in the spring-forward gap by the old offset, as PHP does', () => {
    expect(toUtc('2032-03-14 02:30:00', 'America/New_York')).toBe('2032-03-14 07:30:00');
    expect(
      formatWall(utcToWall(wallToUtc(parseWall('2032-03-14 02:30:00'), 'America/New_York'), 'America/New_York')),
    ).toBe('2032-03-14 03:30:00');
  });

  it('takes the first of the two instants of a repeated hour', () => {
    expect(toUtc('2032-11-07 01:30:00', 'America/New_York')).toBe('2032-11-07 05:30:00');
    expect(toUtc('2032-04-04 02:30:00', 'Australia/Sydney')).toBe('2032-04-03 15:30:00');
  });

  it('leaves ordinary times alone', () => {
    expect(toUtc('2032-02-14 19:30:00', 'Australia/Sydney')).toBe('2032-02-14 08:30:00');
    expect(toUtc('2032-10-31 12:00:00', 'Europe/Berlin')).toBe('2032-10-31 11:00:00');
  });
});
