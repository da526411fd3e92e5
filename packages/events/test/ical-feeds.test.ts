import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import ICAL from 'ical.js';
import { decodeHTML } from 'entities';
import { STORES, startService, createEvent, type Service } from './support/harness.ts';

// Feeds are read back by two independent parsers, Mozilla's ical.js and Debian's python3-icalendar, and every event's
// start, end, zone and summary compared with what the list route answers for the same filters.
const READ_ICS = fileURLToPath(new URL('./support/read-ics.py', import.meta.url));
const FEED = '/wp-json/tribe/events/v1/events.ics';
const WINDOW = { start_date: '2032-01-01', end_date: '2033-12-31' };

interface PyEvent {
  uid: string;
  summary: string;
  description: string;
  location: string;
  url: string;
  geo: [number, number] | null;
  organizer: string;
  categories: string[];
  start: { utc?: string; tzid?: string | null; date?: string };
  end: PyEvent['start'] | null;
  sequence: number;
}
const readWithPython = (ics: string): { events: PyEvent[]; timezones: string[] } =>
  JSON.parse(execFileSync('/usr/bin/python3', [READ_ICS], { input: ics }).toString()) as {
    events: PyEvent[];
    timezones: string[];
  };

const canonical = (zone: string) => (zone === 'europe/paris' ? 'Europe/Paris' : zone);
const plain = (html: string) => decodeHTML(html.replace(/<[^>]*>/g, '')).trim();
const utcIso = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

describe.each(STORES)('iCalendar feeds ($name)', (factory) => {
  let svc: Service;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies
  let created: any[];
  beforeAll(async () => {
    svc = await startService(factory);
    const venue = (
      await svc.post('/venues', {
        venue: 'Opera House',
        address: 'Bennelong Point',
        city: 'Sydney',
        country: 'Australia',
        zip: '2000',
        geo_lat: -33.8568,
        geo_lng: 151.2153,
      })
    ).body;
    const org = (await svc.post('/organizers', { organizer: 'Ada, Events; Ltd', email: 'ada@example.org' })).body;
    const cat = (await svc.post('/categories', { name: 'Music & Arts' })).body;
    created = [
      await createEvent(svc, {
        title: 'Harbour concert',
        description: '<p>First line, with; punctuation</p><p>Second &amp; last</p>',
        status: 'publish',
        timezone: 'Australia/Sydney',
        start_date: '2032-04-04 01:30:00',
        end_date: '2032-04-04 03:30:00',
        venue: venue.id,
        organizer: [org.id],
        categories: [cat.id],
      }),
      await createEvent(svc, {
        title: 'All-day fair',
        status: 'publish',
        all_day: true,
        timezone: 'Europe/London',
        start_date: '2032-03-27',
        end_date: '2032-03-28',
      }),
      await createEvent(svc, {
        title: 'UTC call',
        status: 'publish',
        timezone: 'UTC',
        start_date: '2032-06-01 15:00:00',
        end_date: '2032-06-01 16:00:00',
      }),
      await createEvent(svc, {
        title: 'Réunion à Paris — ünïcödé title long enough to be folded over more than one line ☕☕☕',
        status: 'publish',
        timezone: 'europe/paris',
        start_date: '2032-10-31 01:00:00',
        end_date: '2032-10-31 04:00:00',
      }),
      await createEvent(svc, {
        title: 'Kathmandu',
        status: 'publish',
        timezone: 'Asia/Kathmandu',
        start_date: '2033-01-02 09:00:00',
        end_date: '2033-01-02 10:00:00',
      }),
      await createEvent(svc, {
        title: 'Fixed offset',
        status: 'publish',
        timezone: 'UTC+5',
        start_date: '2032-07-01 09:00:00',
        end_date: '2032-07-01 10:00:00',
      }),
    ];
    await createEvent(svc, {
      title: 'Draft, never in a feed',
      status: 'draft',
      start_date: '2032-05-01 09:00:00',
      end_date: '2032-05-01 10:00:00',
    });
  });
  afterAll(async () => {
    await svc.close();
  });

  const listed = async (query: Record<string, string | number>) =>
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- API bodies
    (await svc.get('/events', { query: { ...query, per_page: 50 } })).body.events as any[];

  it("serves text/calendar with a filename, CRLF lines of at most 75 octets, and the list route's events", async () => {
    const res = await svc.get(FEED, { query: WINDOW });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="events.ics"');
    expect(res.text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(res.text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of res.text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(res.text).not.toContain('Draft, never');
    const api = await listed(WINDOW);
    expect(api.map((e) => e.id).sort()).toEqual(created.map((e) => e.id).sort());
  });

  it('reads back equal to the API with ical.js: start, end, zone, summary, all-day dates, UID', async () => {
    const ics = (await svc.get(FEED, { query: WINDOW })).text;
    const comp = new ICAL.Component(ICAL.parse(ics));
    for (const tz of comp.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
    const vevents = comp.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    const api = await listed(WINDOW);
    expect(vevents).toHaveLength(api.length);
    for (const e of api) {
      const v = vevents.find((x) => x.uid === `${e.id}@wordpress.test`)!;
      expect(v, `event ${e.id}`).toBeDefined();
      expect(v.summary).toBe(plain(e.title));
      if (e.all_day) {
        expect(v.startDate.isDate).toBe(true);
        expect(v.startDate.toString()).toBe(e.start_date.slice(0, 10));
        const endDay = new Date(`${e.end_date.slice(0, 10)}T00:00:00Z`);
        endDay.setUTCDate(endDay.getUTCDate() + 1);
        expect(v.endDate.toString()).toBe(endDay.toISOString().slice(0, 10));
      } else {
        expect(utcIso(v.startDate.toJSDate())).toBe(e.utc_start_date);
        expect(utcIso(v.endDate.toJSDate())).toBe(e.utc_end_date);
        const zone = v.startDate.zone?.tzid;
        expect(zone).toBe(
          e.timezone === 'UTC' ? 'UTC' : /^UTC[+-]/.test(e.timezone) ? e.timezone : canonical(e.timezone),
        );
      }
    }
  });

  it('reads back equal to the API with python3-icalendar, with location, geo, organizer, categories and text', async () => {
    const ics = (await svc.get(FEED, { query: WINDOW })).text;
    const parsed = readWithPython(ics);
    expect(parsed.timezones.sort()).toEqual(['Asia/Kathmandu', 'Australia/Sydney', 'Europe/Paris', 'UTC+5']);
    const api = await listed(WINDOW);
    for (const e of api) {
      const p = parsed.events.find((x) => x.uid === `${e.id}@wordpress.test`)!;
      expect(p.summary).toBe(plain(e.title));
      if (e.all_day) expect(p.start.date).toBe(e.start_date.slice(0, 10));
      else {
        expect(p.start.utc).toBe(e.utc_start_date);
        expect(p.end?.utc).toBe(e.utc_end_date);
      }
      expect(p.url).toBe(e.url);
    }
    const concert = parsed.events.find((x) => x.summary === 'Harbour concert')!;
    expect(concert.description).toBe('First line, with; punctuation\nSecond & last');
    expect(concert.location).toBe('Opera House, Bennelong Point, Sydney, 2000, Australia');
    expect(concert.geo).toEqual([-33.8568, 151.2153]);
    expect(concert.organizer).toBe('mailto:ada@example.org');
    expect(concert.categories).toEqual(['Music & Arts']);
    expect(concert.start.tzid).toBe('Australia/Sydney');
    expect(concert.sequence).toBeGreaterThan(0);
  });

  it("covers the zones with VTIMEZONEs from the runtime's data, including the DST changes in range", async () => {
    const ics = (await svc.get(FEED, { query: WINDOW })).text;
    const sydney = /BEGIN:VTIMEZONE\r\nTZID:Australia\/Sydney\r\n[\s\S]*?END:VTIMEZONE/.exec(ics)![0];
    // 2032: DST ends 4 April (03:00 AEDT → 02:00 AEST) and starts 3 October.
    expect(sydney).toContain('DTSTART:20320404T030000\r\nTZOFFSETFROM:+1100\r\nTZOFFSETTO:+1000');
    expect(sydney).toContain('DTSTART:20321003T020000\r\nTZOFFSETFROM:+1000\r\nTZOFFSETTO:+1100');
    expect(ics).toContain('BEGIN:VTIMEZONE\r\nTZID:Asia/Kathmandu');
    expect(ics).toContain('TZOFFSETTO:+0545');
  });

  it('applies the list filters and the site export URL answers the same feed', async () => {
    const query = { ...WINDOW, search: 'concert' };
    const rest = await svc.get(FEED, { query });
    const site = await svc.get(
      `${svc.base}/events/?ical=1&start_date=${WINDOW.start_date}&end_date=${WINDOW.end_date}&search=concert`,
    );
    expect(site.status).toBe(200);
    expect(site.text).toBe(rest.text);
    expect(readWithPython(rest.text).events.map((e) => e.summary)).toEqual(['Harbour concert']);
    expect((await svc.get(FEED, { query: { ...WINDOW, categories: 'music-arts' } })).text).toContain(
      'SUMMARY:Harbour concert',
    );
    expect((await svc.get(FEED, { query: { start_date: 'not a date' } })).status).toBe(400);
    expect((await svc.get(`${svc.base}/events/`)).status).toBe(404); // no HTML pages: only the export
  });

  it("holds up to 1,000 events without per_page (not the list's 10) and honours a smaller per_page", async () => {
    for (let i = 0; i < 11; i++)
      await createEvent(svc, {
        title: `Many ${i}`,
        status: 'publish',
        start_date: `2034-02-${String(i + 1).padStart(2, '0')} 10:00:00`,
        end_date: `2034-02-${String(i + 1).padStart(2, '0')} 11:00:00`,
      });
    const year = { start_date: '2034-01-01', end_date: '2034-12-31' };
    expect(readWithPython((await svc.get(FEED, { query: year })).text).events).toHaveLength(11);
    expect(
      readWithPython((await svc.get(FEED, { query: { ...year, per_page: 3 } })).text).events.map((e) => e.summary),
    ).toEqual(['Many 0', 'Many 1', 'Many 2']);
  });

  it('exports one event at its page URL with ?ical=1; drafts and unknown slugs are 404', async () => {
    const e = created[0];
    const res = await svc.get(`${e.url.replace('http://wordpress.test', svc.base)}?ical=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${e.slug}.ics"`);
    const parsed = readWithPython(res.text);
    expect(parsed.events.map((x) => x.uid)).toEqual([`${e.id}@wordpress.test`]);
    expect((await svc.get(`${svc.base}/event/no-such-event/?ical=1`)).status).toBe(404);
    const draft = await createEvent(svc, { title: 'Hidden draft', status: 'draft' });
    expect((await svc.get(`${svc.base}/event/${draft.id}/?ical=1`)).status).toBe(404);
  });

  it('keeps the UID across edits and raises SEQUENCE and LAST-MODIFIED', async () => {
    const e = await createEvent(svc, {
      title: 'Edited',
      status: 'publish',
      start_date: '2032-08-01 10:00:00',
      end_date: '2032-08-01 11:00:00',
    });
    const read = async () => readWithPython((await svc.get(`${svc.base}/event/${e.slug}/?ical=1`)).text).events[0]!;
    const before = await read();
    svc.clock.now += 60_000;
    await svc.request('PATCH', `/events/${e.id}`, { form: { title: 'Edited again' }, as: 'administrator' });
    const after = await read();
    expect(after.uid).toBe(before.uid);
    expect(after.summary).toBe('Edited again');
    expect(after.sequence).toBeGreaterThan(before.sequence);
  });
});
