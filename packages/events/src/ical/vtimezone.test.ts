import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import ICAL from 'ical.js';
import { offsetMinutes } from '../time/index.ts';
import { vtimezoneLines } from './vtimezone.ts';
import { joinLines } from './content-line.ts';

const ZONES = ['Europe/Paris', 'Australia/Sydney', 'America/St_Johns', 'Asia/Kathmandu', 'America/Santiago', 'Africa/Casablanca', 'Pacific/Chatham', 'UTC+5'];
const FROM = Date.UTC(2024, 0, 1);
const TO = Date.UTC(2035, 11, 31);

/** The generated VTIMEZONE, read by ical.js, as an offset function. */
function readZone(zone: string): ICAL.Timezone {
  const text = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\n${joinLines(vtimezoneLines(zone, zone, FROM, TO))}END:VCALENDAR\r\n`;
  const comp = new ICAL.Component(ICAL.parse(text));
  return new ICAL.Timezone(comp.getFirstSubcomponent('vtimezone')!);
}

const HOUR_MS = 3_600_000;

/** Every offset a wall time in `zone` can be read with (two in a repeated hour after a fall-back, none in a gap). */
function validOffsets(zone: string, wallMs: number): number[] {
  const near = new Set([-1, 0, 1].map((d) => offsetMinutes(zone, wallMs + d * 24 * HOUR_MS)));
  return [...near].filter((o) => offsetMinutes(zone, wallMs - o * 60_000) === o);
}

/** Instants spread over the range, half of them within three hours of one of the zone's offset changes. */
function instants(zone: string): fc.Arbitrary<number> {
  const changes: number[] = [];
  for (let t = FROM; t < TO; t += HOUR_MS) if (offsetMinutes(zone, t) !== offsetMinutes(zone, t + HOUR_MS)) changes.push(t);
  // Whole seconds: an iCalendar DATE-TIME has no finer unit.
  const anywhere = fc.integer({ min: FROM / 1000, max: TO / 1000 }).map((s) => s * 1000);
  if (changes.length === 0) return anywhere;
  const nearChange = fc.tuple(fc.constantFrom(...changes), fc.integer({ min: -3 * HOUR_MS, max: 4 * HOUR_MS }))
    .map(([t, d]) => Math.floor((t + d) / 60_000) * 60_000);
  return fc.oneof(anywhere, nearChange);
}

describe('VTIMEZONE from the runtime\'s IANA data', () => {
  // ical.js resolves a zone by wall time, so its UTC-to-zone conversion reads the repeated hour after a fall-back with
  // the later offset for every instant in it. What a client needs from the block is that each wall time it reads maps
  // back to the instant Intl gives, and that a repeated wall time maps to one of its two real instants.
  it.each(ZONES)('maps every wall time in range to the instant Intl gives (%s), read back by ical.js', (zone) => {
    const tz = readZone(zone);
    fc.assert(fc.property(instants(zone), (ms) => {
      const wall = ms + offsetMinutes(zone, ms) * 60_000;
      const d = new Date(wall);
      const t = new ICAL.Time({
        year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(),
        hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), isDate: false,
      }, tz);
      const valid = validOffsets(zone, wall);
      expect(valid).toContain(offsetMinutes(zone, ms));
      expect(valid).toContain(t.utcOffset() / 60);
      if (valid.length === 1) expect(t.toUnixTime() * 1000).toBe(ms);
    }), { numRuns: 400 });
  });

  it('names the observances and marks summer time as DAYLIGHT', () => {
    const lines = vtimezoneLines('Europe/Paris', 'Europe/Paris', Date.UTC(2032, 0, 1), Date.UTC(2032, 11, 1));
    expect(lines.join('\n')).toContain('BEGIN:DAYLIGHT\nDTSTART:20320328T020000\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0200\nTZNAME:CEST\nEND:DAYLIGHT');
    expect(lines.join('\n')).toContain('BEGIN:STANDARD\nDTSTART:20321031T030000\nTZOFFSETFROM:+0200\nTZOFFSETTO:+0100\nTZNAME:CET\nEND:STANDARD');
  });
});
