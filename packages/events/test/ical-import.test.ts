import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, type Service } from './support/harness.ts';
import { calendar, icsImporter, vevent, type Importer } from './support/ics-import.ts';

// Issue 30 item 2: iCalendar import. VEVENTs become events keyed by UID (RECURRENCE-ID for overrides), written
// through the REST write rules in one transaction; a re-sync writes only what changed and trashes what left.

const WIDE = { start_date: '2000-01-01', end_date: '2100-01-01', per_page: 50, status: 'publish' };

const CUSTOM_ZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Outlook Eastern',
  'BEGIN:STANDARD',
  'DTSTART:19700101T000000',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0500',
  'END:STANDARD',
  'END:VTIMEZONE',
];

const FEED = calendar(
  ...CUSTOM_ZONE,
  ...vevent(
    'UID:jazz@other.test',
    'DTSTAMP:20250101T000000Z',
    'DTSTART;TZID=Europe/Paris:20250704T193000',
    'DTEND;TZID=Europe/Paris:20250704T230000',
    'SUMMARY:Jazz night',
    'DESCRIPTION:Live music\\, all night\\nBring friends & <family>',
    'LOCATION:Blue Room\\, 12 Rue de la Paix\\, Paris',
    'GEO:48.8686;2.3316',
    'ORGANIZER;CN=Ann Lee:mailto:ann@other.test',
    'CATEGORIES:Music,Jazz',
    'URL:https://other.test/jazz',
  ),
  ...vevent('UID:picnic@other.test', 'DTSTART;VALUE=DATE:20250705', 'DTEND;VALUE=DATE:20250707', 'SUMMARY:Picnic'),
  ...vevent('UID:call@other.test', 'DTSTART:20250706T150000Z', 'DURATION:PT90M', 'SUMMARY:Call', 'LOCATION:Blue Room'),
  ...vevent('UID:outlook@other.test', 'DTSTART;TZID=Outlook Eastern:20250707T090000', 'SUMMARY:Standup'),
  ...vevent(
    'UID:moz@other.test',
    'DTSTART;TZID=/mozilla.org/20050126_1/America/New_York:20250708T090000',
    'SUMMARY:Moz',
  ),
  ...vevent('UID:gone@other.test', 'DTSTART:20250709T090000', 'SUMMARY:Cancelled', 'STATUS:CANCELLED'),
);

describe.each(STORES)('iCalendar import ($name)', (factory) => {
  let svc: Service;
  let importer: Importer;
  beforeAll(async () => {
    svc = await startService(factory);
    importer = await icsImporter(svc);
  });
  afterAll(async () => {
    await importer.close();
    await svc.close();
  });
  const eventNamed = async (title: string) => {
    const list = await svc.get('/events', { query: { ...WIDE, search: title }, as: 'administrator' });
    return list.body.events.find((e: { title: string }) => e.title === title);
  };

  it('maps VEVENT times (TZID, UTC, DATE, DURATION, VTIMEZONE), LOCATION/GEO, ORGANIZER, CATEGORIES and URL', async () => {
    const r = await importer.run(FEED);
    expect(r).toMatchObject({ vevents: 6, created: 5, updated: 0, unchanged: 0, trashed: 0, refused: [] });
    const jazz = await eventNamed('Jazz night');
    expect(jazz).toMatchObject({
      start_date: '2025-07-04 19:30:00',
      end_date: '2025-07-04 23:00:00',
      utc_start_date: '2025-07-04 17:30:00',
      timezone: 'Europe/Paris',
      all_day: false,
      website: 'https://other.test/jazz',
      venue: { venue: 'Blue Room', address: '12 Rue de la Paix, Paris' },
    });
    expect(jazz.description).toContain('Live music, all night');
    // Plain text stays text: markup escaped, then shown as WordPress shows a description (`&` as `&#038;`).
    expect(jazz.description).toContain('Bring friends &#038; &lt;family&gt;');
    expect(jazz.organizer.map((o: { organizer: string; email: string }) => [o.organizer, o.email])).toEqual([
      ['Ann Lee', 'ann@other.test'],
    ]);
    expect(jazz.categories.map((c: { name: string }) => c.name).sort()).toEqual(['Jazz', 'Music']);
    expect(await eventNamed('Picnic')).toMatchObject({
      start_date: '2025-07-05 00:00:00',
      end_date: '2025-07-06 23:59:59',
      all_day: true,
    });
    const call = await eventNamed('Call');
    expect(call).toMatchObject({ start_date: '2025-07-06 15:00:00', end_date: '2025-07-06 16:30:00', timezone: 'UTC' });
    // The same LOCATION name links the venue created for the first event.
    expect(call.venue.id).toBe(jazz.venue.id);
    // A TZID no IANA name matches is read with the feed's VTIMEZONE, into UTC.
    expect(await eventNamed('Standup')).toMatchObject({ utc_start_date: '2025-07-07 14:00:00', timezone: 'UTC' });
    expect(await eventNamed('Moz')).toMatchObject({ start_date: '2025-07-08 09:00:00', timezone: 'America/New_York' });
    expect(await eventNamed('Cancelled')).toBeUndefined();
  });

  const SERIES = (summary: string, extra: string[] = []) =>
    calendar(
      ...vevent(
        'UID:weekly@other.test',
        'DTSTART;TZID=America/New_York:20260105T180000',
        'DTEND;TZID=America/New_York:20260105T200000',
        `SUMMARY:${summary}`,
        'RRULE:FREQ=WEEKLY;COUNT=5',
        'EXDATE;TZID=America/New_York:20260119T180000',
        'RDATE;TZID=America/New_York:20260210T180000',
      ),
      ...vevent(
        'UID:weekly@other.test',
        'RECURRENCE-ID;TZID=America/New_York:20260112T180000',
        'DTSTART;TZID=America/New_York:20260112T190000',
        'DTEND;TZID=America/New_York:20260112T210000',
        'SUMMARY:Moved meetup',
      ),
      ...vevent(
        'UID:weekly@other.test',
        'RECURRENCE-ID:20260126T230000Z',
        'DTSTART;TZID=America/New_York:20260126T180000',
        'SUMMARY:Cancelled meetup',
        'STATUS:CANCELLED',
      ),
      ...extra,
    );
  const occurrences = async (parent: number) =>
    (await svc.get('/events', { query: { ...WIDE, post_parent: parent }, as: 'administrator' })).body.events.map(
      (e: { title: string; start_date: string }) => `${e.start_date} ${e.title}`,
    );

  it('turns RRULE, EXDATE and RDATE into a series, RECURRENCE-ID into an occurrence edited alone, a cancelled one into the trash', async () => {
    const r = await importer.run(SERIES('Meetup'), {}, 'test:series');
    expect(r).toMatchObject({ vevents: 3, created: 1, updated: 1, trashed: 1, refused: [] });
    const first = await eventNamed('Meetup');
    expect(first).toMatchObject({ start_date: '2026-01-05 18:00:00', timezone: 'America/New_York' });
    expect(await occurrences(first.id)).toEqual([
      '2026-01-12 19:00:00 Moved meetup',
      '2026-02-02 18:00:00 Meetup',
      '2026-02-10 18:00:00 Meetup',
    ]);
    // A series edit (a changed SUMMARY) reaches the occurrences not edited alone and leaves the override as it is.
    const again = await importer.run(SERIES('Meetup v2'), {}, 'test:series');
    expect(again).toMatchObject({ created: 0, updated: 1, unchanged: 2, trashed: 0 });
    expect(await occurrences(first.id)).toEqual([
      '2026-01-12 19:00:00 Moved meetup',
      '2026-02-02 18:00:00 Meetup v2',
      '2026-02-10 18:00:00 Meetup v2',
    ]);
  });
});
