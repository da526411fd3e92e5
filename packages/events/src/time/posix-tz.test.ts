import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsePosixTz, posixChanges, PosixTzError } from './posix-tz.ts';
import { ruleChanges, zoneRules } from './zone-rules.ts';

describe('parsePosixTz', () => {
  it('reads names, west-positive offsets as seconds east, and Mm.w.d rules with the 02:00 default', () => {
    expect(parsePosixTz('EST5EDT,M3.2.0,M11.1.0')).toEqual({
      std: { abbr: 'EST', offset: -18000 },
      dst: {
        abbr: 'EDT',
        offset: -14400,
        start: { date: { kind: 'month', month: 3, week: 2, weekday: 0 }, time: 7200 },
        end: { date: { kind: 'month', month: 11, week: 1, weekday: 0 }, time: 7200 },
      },
    });
  });

  it('reads quoted names, minutes in offsets and times, negative and over-24-hour times', () => {
    const chatham = parsePosixTz('<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45');
    expect(chatham.std).toEqual({ abbr: '+1245', offset: 45_900 });
    expect(chatham.dst?.offset).toBe(49_500);
    expect(chatham.dst?.start.time).toBe(9900);
    expect(parsePosixTz('<-02>2<-01>,M3.5.0/-1,M10.5.0/0').dst?.start.time).toBe(-3600);
    expect(parsePosixTz('EET-2EEST,M3.4.4/50,M10.4.4/50').dst?.end.time).toBe(50 * 3600);
    expect(parsePosixTz('IST-1GMT0,M10.5.0,M3.5.0/1').dst).toMatchObject({ abbr: 'GMT', offset: 0 });
  });

  it('reads julian day forms and zones without DST', () => {
    expect(parsePosixTz('XST3XDT,J60/0,300').dst).toMatchObject({
      start: { date: { kind: 'julian1', day: 60 }, time: 0 },
      end: { date: { kind: 'julian0', day: 300 }, time: 7200 },
    });
    expect(parsePosixTz('JST-9')).toEqual({ std: { abbr: 'JST', offset: 32_400 } });
    expect(parsePosixTz('<+0545>-5:45')).toEqual({ std: { abbr: '+0545', offset: 20_700 } });
  });

  it('refuses what it cannot read with a typed error', () => {
    for (const bad of [
      '',
      'EST',
      'EST5EDT',
      'EST5EDT,M13.1.0,M11.1.0',
      'EST5EDT,M3.6.0,M11.1.0',
      'EST5EDT,J0,J100',
      'EST5EDT,366,J100',
    ]) {
      expect(() => parsePosixTz(bad), bad).toThrow(PosixTzError);
    }
  });
});

describe('posixChanges', () => {
  it('places changes by the wall time of the offset they leave', () => {
    const [spring, fall] = posixChanges(parsePosixTz('EST5EDT,M3.2.0,M11.1.0'), 2024);
    expect(spring).toMatchObject({ at: Date.UTC(2024, 2, 10, 7), from: -18000, to: -14400, isDst: true, abbr: 'EDT' });
    expect(fall).toMatchObject({ at: Date.UTC(2024, 10, 3, 6), from: -14400, to: -18000, isDst: false, abbr: 'EST' });
    // Southern hemisphere: the year starts in daylight time.
    expect(posixChanges(parsePosixTz('AEST-10AEDT,M10.1.0,M4.1.0/3'), 2024).map((c) => c.at)).toEqual([
      Date.UTC(2024, 3, 6, 16),
      Date.UTC(2024, 9, 5, 16),
    ]);
    // Nuuk: Saturday 23:00 before the last Sunday of March; J60 is 1 March in every year, 59 (zero-based) is 29 February in 2024.
    expect(posixChanges(parsePosixTz('<-02>2<-01>,M3.5.0/-1,M10.5.0/0'), 2025)[0]!.at).toBe(
      Date.UTC(2025, 2, 29, 23 + 2),
    );
    expect(
      posixChanges(parsePosixTz('XST3XDT,J60/0,59/0'), 2024).map((c) => new Date(c.at).toISOString().slice(0, 10)),
    ).toEqual(['2024-02-29', '2024-03-01']);
    expect(posixChanges(parsePosixTz('JST-9'), 2024)).toEqual([]);
  });

  // zic writes each rule change up to 2037 into the file as well: the footer must reproduce those instants exactly.
  // (Not Gaza or Casablanca: their files list changes that differ from the footer's rule until 2086-2087.)
  const ZONES = [
    'America/New_York',
    'Europe/Berlin',
    'Australia/Sydney',
    'Asia/Jerusalem',
    'America/Nuuk',
    'America/Santiago',
    'Pacific/Chatham',
    'Europe/Dublin',
    'Africa/Cairo',
    'America/St_Johns',
  ];
  it.each(ZONES)('reproduces the explicit changes zic wrote for 2030-2037 (%s)', (zone) => {
    const rules = zoneRules(zone)!;
    fc.assert(
      fc.property(fc.integer({ min: 2030, max: 2037 }), (year) => {
        const explicit = rules.explicit.filter((c) => new Date(c.at).getUTCFullYear() === year);
        const fromFooter = [
          ...ruleChanges(rules, year - 1),
          ...ruleChanges(rules, year),
          ...ruleChanges(rules, year + 1),
        ].filter((c) => new Date(c.at).getUTCFullYear() === year);
        expect(fromFooter.map((c) => [c.at, c.from, c.to])).toEqual(explicit.map((c) => [c.at, c.from, c.to]));
      }),
      { numRuns: 8 },
    );
  });
});
