import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import ICAL from 'ical.js';
import { offsetMinutes } from '../time/index.ts';
import { changesBetween, ruleOffsetAt, zoneRules } from '../time/zone-rules.ts';
import { vtimezoneLines } from './vtimezone.ts';
import { joinLines } from './content-line.ts';

const ZONES = [
  'Europe/Paris',
  'Australia/Sydney',
  'America/St_Johns',
  'Asia/Kathmandu',
  'America/Santiago',
  'Africa/Casablanca',
  'Pacific/Chatham',
  'UTC+5',
];
const FROM = Date.UTC(2024, 0, 1);
const TO = Date.UTC(2035, 11, 31);

/** The generated VTIMEZONE, read by ical.js, as an offset function. */
function readZone(zone: string, from = FROM, to = TO): ICAL.Timezone {
  const text = `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:test\r\n${joinLines(vtimezoneLines(zone, zone, [{ from, to }]))}END:VCALENDAR\r\n`;
  const comp = new ICAL.Component(ICAL.parse(text));
  return new ICAL.Timezone(comp.getFirstSubcomponent('vtimezone')!);
}

const HOUR_MS = 3_600_000;

type Offsets = (zone: string, utcMs: number) => number;

/** Every offset a wall time in `zone` can be read with (two in a repeated hour after a fall-back, none in a gap). */
function validOffsets(zone: string, wallMs: number, offset: Offsets = offsetMinutes): number[] {
  const near = new Set([-1, 0, 1].map((d) => offset(zone, wallMs + d * 24 * HOUR_MS)));
  return [...near].filter((o) => offset(zone, wallMs - o * 60_000) === o);
}

/** Instants spread over the range, half of them within three hours of one of the zone's offset changes. */
function instants(zone: string, from = FROM, to = TO): fc.Arbitrary<number> {
  const changes: number[] = [];
  const rules = zoneRules(zone);
  if (rules !== null) changes.push(...changesBetween(rules, from, to).map((c) => c.at));
  else
    for (let t = from; t < to; t += HOUR_MS)
      if (offsetMinutes(zone, t) !== offsetMinutes(zone, t + HOUR_MS)) changes.push(t);
  // Whole seconds: an iCalendar DATE-TIME has no finer unit.
  const anywhere = fc.integer({ min: from / 1000, max: to / 1000 }).map((s) => s * 1000);
  if (changes.length === 0) return anywhere;
  const nearChange = fc
    .tuple(fc.constantFrom(...changes), fc.integer({ min: -3 * HOUR_MS, max: 4 * HOUR_MS }))
    .map(([t, d]) => Math.floor((t + d) / 60_000) * 60_000);
  return fc.oneof(anywhere, nearChange);
}

describe("VTIMEZONE from the runtime's IANA data", () => {
  // ical.js resolves a zone by wall time, so its UTC-to-zone conversion reads the repeated hour after a fall-back with
  // the later offset for every instant in it. What a client needs from the block is that each wall time it reads maps
  // back to the instant Intl gives, and that a repeated wall time maps to one of its two real instants.
  it.each(ZONES)('maps every wall time in range to the instant Intl gives (%s), read back by ical.js', (zone) => {
    const tz = readZone(zone);
    fc.assert(
      fc.property(instants(zone), (ms) => {
        const wall = ms + offsetMinutes(zone, ms) * 60_000;
        const d = new Date(wall);
        const t = new ICAL.Time(
          {
            year: d.getUTCFullYear(),
            month: d.getUTCMonth() + 1,
            day: d.getUTCDate(),
            hour: d.getUTCHours(),
            minute: d.getUTCMinutes(),
            second: d.getUTCSeconds(),
            isDate: false,
          },
          tz,
        );
        const valid = validOffsets(zone, wall);
        expect(valid).toContain(offsetMinutes(zone, ms));
        expect(valid).toContain(t.utcOffset() / 60);
        if (valid.length === 1) expect(t.toUnixTime() * 1000).toBe(ms);
      }),
      { numRuns: 400 },
    );
  });

  it('names the observances and marks summer time as DAYLIGHT', () => {
    const lines = vtimezoneLines('Europe/Paris', 'Europe/Paris', [
      { from: Date.UTC(2032, 0, 1), to: Date.UTC(2032, 11, 1) },
    ]);
    expect(lines.join('\n')).toContain(
      'BEGIN:DAYLIGHT\nDTSTART:20320328T020000\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0200\nTZNAME:CEST\nEND:DAYLIGHT',
    );
    expect(lines.join('\n')).toContain(
      'BEGIN:STANDARD\nDTSTART:20321031T030000\nTZOFFSETFROM:+0200\nTZOFFSETTO:+0100\nTZNAME:CET\nEND:STANDARD',
    );
  });
});

describe("VTIMEZONE with the zone's current rule as RRULEs", () => {
  const LONG_FROM = Date.UTC(1970, 0, 1);
  const LONG_TO = Date.UTC(2200, 11, 31);
  const fromTzif: Offsets = (zone, ms) => ruleOffsetAt(zoneRules(zone)!, ms);
  const RULE_ZONES = [
    'America/New_York',
    'Europe/Berlin',
    'Australia/Sydney',
    'Asia/Jerusalem',
    'America/Nuuk',
    'Pacific/Chatham',
    'Europe/Dublin',
    'America/Santiago',
    'Asia/Tokyo',
  ];

  it.each(RULE_ZONES)(
    "gives the TZif data's offset for instants across 1970-2200, read back by ical.js (%s)",
    (zone) => {
      const text = vtimezoneLines(zone, zone, [{ from: LONG_FROM, to: LONG_TO }]).join('\n');
      if (zone !== 'Asia/Tokyo') expect(text).toContain('RRULE:FREQ=YEARLY;BYMONTH=');
      const tz = readZone(zone, LONG_FROM, LONG_TO);
      fc.assert(
        fc.property(instants(zone, LONG_FROM, LONG_TO), (ms) => {
          const expected = fromTzif(zone, ms);
          expect(offsetMinutes(zone, ms)).toBe(expected);
          const d = new Date(ms + expected * 60_000);
          const t = new ICAL.Time(
            {
              year: d.getUTCFullYear(),
              month: d.getUTCMonth() + 1,
              day: d.getUTCDate(),
              hour: d.getUTCHours(),
              minute: d.getUTCMinutes(),
              second: d.getUTCSeconds(),
              isDate: false,
            },
            tz,
          );
          const valid = validOffsets(zone, ms + expected * 60_000, fromTzif);
          expect(valid).toContain(t.utcOffset() / 60);
          if (valid.length === 1) expect(t.toUnixTime() * 1000).toBe(ms);
        }),
        { numRuns: 400 },
      );
    },
  );

  it('covers a 1000-9999 event with a handful of observances: its two years, not the 8,998 between', () => {
    const text = vtimezoneLines('America/New_York', 'America/New_York', [
      { from: Date.UTC(1000, 0, 2, 5), to: Date.UTC(1000, 0, 2, 5) },
      { from: Date.UTC(9999, 11, 30, 5), to: Date.UTC(9999, 11, 30, 5) },
    ]).join('\n');
    expect(text.match(/BEGIN:(STANDARD|DAYLIGHT)/g)).toHaveLength(4);
    // Local mean time before 1883, in force from before the first time written; EST from 1 January 9999.
    expect(text).toContain('DTSTART:09990101T000000\nTZOFFSETFROM:-0456\nTZOFFSETTO:-0456\nTZNAME:LMT');
    expect(text).toContain('DTSTART:99990314T020000\nTZOFFSETFROM:-0500\nTZOFFSETTO:-0400\nTZNAME:EDT');
  });

  it('writes a bounded span change by change, as before, and a long one as one DAYLIGHT/STANDARD pair', () => {
    const short = vtimezoneLines('Europe/Berlin', 'Europe/Berlin', [
      { from: Date.UTC(2024, 0, 1), to: Date.UTC(2027, 11, 1) },
    ]);
    expect(short.filter((l) => l.startsWith('RRULE:'))).toEqual([]);
    expect(short.filter((l) => l === 'BEGIN:DAYLIGHT')).toHaveLength(4);
    const long = vtimezoneLines('Europe/Berlin', 'Europe/Berlin', [
      { from: Date.UTC(2024, 0, 1), to: Date.UTC(9999, 11, 1) },
    ]).join('\n');
    expect(long).toContain(
      'BEGIN:DAYLIGHT\nDTSTART:20240331T020000\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\nTZOFFSETFROM:+0100\nTZOFFSETTO:+0200\nTZNAME:CEST',
    );
    expect(long).toContain(
      'BEGIN:STANDARD\nDTSTART:20241027T030000\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\nTZOFFSETFROM:+0200\nTZOFFSETTO:+0100\nTZNAME:CET',
    );
    expect(long.match(/BEGIN:(STANDARD|DAYLIGHT)/g)).toHaveLength(3);
  });
});
