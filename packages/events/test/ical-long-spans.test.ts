import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import ICAL from 'ical.js';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

// Issue 23 item 3: one event from 1000-01-02 to 9999-12-30 made its feed carry every offset change of the 9,000
// years between (8,053 DAYLIGHT blocks, 1.7 MB, 21-30 s). A feed covers only the years of the times it writes.
const READ_ICS = fileURLToPath(new URL('./support/read-ics.py', import.meta.url));
const ZONES = ['America/New_York', 'Europe/Berlin', 'Australia/Sydney', 'Asia/Tokyo', 'UTC'];
// Generous for a loaded shared machine; bench/ical-span-bench.ts measures the render itself (~1-4 ms a zone).
const FEED_BUDGET_MS = 2000;

interface PyTime {
  utc?: string;
  tzid?: string | null;
}
interface PyEvent {
  uid: string;
  start: PyTime;
  end: PyTime | null;
}
const readWithPython = (ics: string): PyEvent[] =>
  (JSON.parse(execFileSync('/usr/bin/python3', [READ_ICS], { input: ics }).toString()) as { events: PyEvent[] }).events;
const utcIso = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

/** ical.js's reading of every VEVENT: UID → UTC start and end, resolved through the feed's own VTIMEZONEs. */
function readWithIcalJs(ics: string): Map<string, [string, string]> {
  const comp = new ICAL.Component(ICAL.parse(ics));
  const zones = comp.getAllSubcomponents('vtimezone');
  for (const tz of zones) ICAL.TimezoneService.register(tz);
  try {
    const events = comp.getAllSubcomponents('vevent').map((x) => new ICAL.Event(x));
    return new Map(events.map((v) => [v.uid, [utcIso(v.startDate.toJSDate()), utcIso(v.endDate.toJSDate())]]));
  } finally {
    for (const tz of zones) ICAL.TimezoneService.remove(String(tz.getFirstPropertyValue('tzid')));
  }
}

describe.each(STORES)('iCalendar feeds of events spanning 1000-9999 ($name)', (factory) => {
  let svc: Service;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies
  let events: any[];
  beforeAll(async () => {
    svc = await startService(factory);
    events = [];
    for (const timezone of ZONES) {
      events.push(
        await createEvent(svc, {
          title: `Ages ${timezone}`,
          status: 'publish',
          timezone,
          start_date: '1000-01-02 10:00:00',
          end_date: '9999-12-30 18:00:00',
        }),
      );
    }
  });
  afterAll(async () => {
    await svc.close();
  });

  async function timedFeed(url: string): Promise<string> {
    const t0 = performance.now();
    const res = await svc.get(url);
    expect(res.status).toBe(200);
    expect(performance.now() - t0).toBeLessThan(FEED_BUDGET_MS);
    return res.text;
  }

  function expectReadBack(ics: string, expected: readonly unknown[]) {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies
    const api = expected as any[];
    const icalJs = readWithIcalJs(ics);
    const python = readWithPython(ics);
    // The same text with the zone ids renamed, so python3-icalendar reads our VTIMEZONEs (with dateutil) instead of pytz's.
    const renamed = readWithPython(ics.replace(/TZID([:=])(?!UTC)/g, 'TZID$1X-Feed/'));
    for (const e of api) {
      const uid = `${e.id}@wordpress.test`;
      expect(icalJs.get(uid), `ical.js ${e.timezone}`).toEqual([e.utc_start_date, e.utc_end_date]);
      for (const p of [python, renamed]) {
        const read = p.find((x) => x.uid === uid)!;
        expect([read.start.utc, read.end?.utc], `python ${e.timezone}`).toEqual([e.utc_start_date, e.utc_end_date]);
      }
    }
  }

  it.each(ZONES)(
    'exports the single event in %s quickly, with a few observances, read back by ical.js and python',
    async (zone) => {
      const e = events.find((x) => x.timezone === zone);
      const ics = await timedFeed(`${e.url.replace('http://wordpress.test', svc.base)}?ical=1`);
      expect(ics.length).toBeLessThan(4000);
      expect((ics.match(/BEGIN:(STANDARD|DAYLIGHT)/g) ?? []).length).toBeLessThan(10);
      expectReadBack(ics, [e]);
    },
  );

  it('exports all five in /events/?ical=1 within the same bounds', async () => {
    const ics = await timedFeed(`${svc.base}/events/?ical=1&start_date=1000-01-01&end_date=9999-12-31`);
    expect((ics.match(/BEGIN:VEVENT/g) ?? []).length).toBe(5);
    expect((ics.match(/BEGIN:(STANDARD|DAYLIGHT)/g) ?? []).length).toBeLessThan(50);
    expect(ics.length).toBeLessThan(10_000);
    expectReadBack(ics, events);
  });
});
