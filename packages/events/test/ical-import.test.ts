import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, countWritten, createEvent, startService, type Service } from './support/harness.ts';
import { IcsImportError, type IcsImportOptions } from '../src/import/index.ts';
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
      // URL is the event's page on the feed's site, not a website of the event: the event gets its own page here.
      website: 'http://wordpress.test/event/jazz-night/',
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

  const byUid = (uid: string, summary: string, day: string) =>
    vevent(`UID:${uid}`, `DTSTART:${day}T100000Z`, `DTEND:${day}T110000Z`, `SUMMARY:${summary}`);
  const single = async (id: number) => {
    const res = await svc.get(`/events/${id}`);
    return { status: res.status, etag: res.headers.get('etag'), title: res.body?.title as string | undefined };
  };

  it('re-syncs: unchanged events keep their ETag, changed ones are updated, vanished ones trashed unless kept', async () => {
    const feed = (...events: string[][]) => calendar(...events.flat());
    const a = byUid('a@resync', 'Alpha', '20270101');
    const b = byUid('b@resync', 'Beta', '20270102');
    const c = byUid('c@resync', 'Gamma', '20270103');
    const d = byUid('d@resync', 'Delta', '20270104');
    expect(await importer.run(feed(a, b, c, d), {}, 'test:resync')).toMatchObject({ created: 4 });
    const ids = Object.fromEntries(
      await Promise.all(['Alpha', 'Beta', 'Gamma', 'Delta'].map(async (t) => [t, (await eventNamed(t)).id])),
    ) as Record<string, number>;
    const before = await single(ids.Alpha!);
    expect(await importer.run(feed(a, b, c, d), {}, 'test:resync')).toMatchObject({
      created: 0,
      updated: 0,
      unchanged: 4,
      trashed: 0,
    });
    expect(await single(ids.Alpha!)).toEqual(before);
    const changed = byUid('b@resync', 'Beta renamed', '20270102');
    expect(await importer.run(feed(a, changed, d), {}, 'test:resync')).toMatchObject({
      created: 0,
      updated: 1,
      unchanged: 2,
      trashed: 1,
    });
    expect(await single(ids.Alpha!)).toEqual(before);
    expect(await single(ids.Beta!)).toMatchObject({ status: 200, title: 'Beta renamed' });
    expect((await svc.get(`/events/${ids.Gamma!}`, { as: 'administrator' })).body.code).toBe(
      'event-no-longer-available',
    );
    // trashVanished off (`--keep-vanished`): Delta leaves the feed and stays published.
    expect(await importer.run(feed(a, changed), { trashVanished: false }, 'test:resync')).toMatchObject({ trashed: 0 });
    expect((await single(ids.Delta!)).status).toBe(200);
    // A dry run reports and writes nothing (Beta and the kept Delta would leave with trashVanished on).
    const dry = await importer.run(feed(byUid('a@resync', 'Alpha 2', '20270101')), { dryRun: true }, 'test:resync');
    expect(dry).toMatchObject({ dryRun: true, updated: 1, trashed: 2 });
    expect(await single(ids.Alpha!)).toEqual(before);
  });

  it('refuses hostile and broken feeds with a bounded, clear error and writes nothing', async () => {
    const before = await countWritten(svc);
    const good = calendar(...byUid('h1@hostile', 'Fine', '20270201'), ...byUid('h2@hostile', 'Fine too', '20270202'));
    const refusal = (ics: string | Uint8Array, opts: Partial<IcsImportOptions> = {}) =>
      importer.run(ics, opts, 'test:hostile').then(
        () => undefined,
        (err: unknown) => {
          if (!(err instanceof IcsImportError)) throw err;
          return { kind: err.kind, message: err.message, problems: err.problems };
        },
      );
    expect(await refusal(good, { limits: { maxBytes: 100, maxEvents: 10 } })).toMatchObject({
      kind: 'too_large',
      message: expect.stringContaining('at most 100 are read'),
    });
    expect(await refusal(good, { limits: { maxBytes: 10_000, maxEvents: 1 } })).toMatchObject({
      kind: 'too_large',
      message: 'the feed has 2 VEVENTs; at most 1 are imported',
    });
    expect(await refusal(Buffer.from(`\ufeff${good}`, 'utf16le'))).toMatchObject({ kind: 'encoding' });
    const latin1 = Buffer.from(good.replace('Fine too', 'Caf\u00e9'), 'latin1');
    expect(await refusal(latin1)).toMatchObject({
      kind: 'encoding',
      message: expect.stringMatching(/not UTF-8 \(an invalid byte near offset \d+\)/),
    });
    expect(await refusal('hello')).toMatchObject({
      kind: 'malformed',
      message: expect.stringContaining('BEGIN:VCALENDAR'),
    });
    expect(await refusal(good.slice(0, good.length - 40))).toMatchObject({ kind: 'malformed' });
    expect(await refusal(good.replace('SUMMARY:Fine\r\n', 'SUMMARY Fine\r\n'))).toMatchObject({ kind: 'malformed' });
    expect(await refusal(good.replace('Fine too', 'Fine\u0000'))).toMatchObject({ kind: 'malformed' });
    // VEVENTs the REST rules or RFC 5545 refuse: every one listed, none of the feed written.
    const bad = calendar(
      ...byUid('h1@hostile', 'Fine', '20270201'),
      ...vevent('UID:hourly@hostile', 'DTSTART:20270203T100000Z', 'SUMMARY:Hourly', 'RRULE:FREQ=HOURLY;COUNT=3'),
      ...vevent('DTSTART:20270204T100000Z', 'SUMMARY:No UID'),
      ...vevent('UID:zone@hostile', 'DTSTART;TZID=Nowhere/Special:20270205T100000', 'SUMMARY:Zone'),
      ...vevent('UID:long@hostile', 'DTSTART:20270206T100000Z', 'SUMMARY:Long', 'RRULE:FREQ=DAILY;COUNT=5000'),
    );
    const refused = await refusal(bad);
    expect(refused?.kind).toBe('bad_events');
    expect(refused?.problems.map((p) => p.uid)).toEqual(['(none)', 'hourly@hostile', 'zone@hostile']);
    expect(refused?.problems.find((p) => p.uid === 'zone@hostile')?.reason).toContain('TZID "Nowhere/Special"');
    expect(await countWritten(svc)).toEqual(before);
    // --skip-bad: the good VEVENT is imported, the others reported (a series over the occurrence limit is found
    // when its occurrences are expanded, in the write: that series alone is undone).
    const skipped = await importer.run(bad, { skipBad: true }, 'test:hostile');
    expect(skipped).toMatchObject({ created: 1 });
    expect(skipped.refused).toHaveLength(4);
  });
});

describe.each(STORES)('iCalendar round trip ($name)', (factory) => {
  let source: Service;
  let target: Service;
  let importer: Importer;
  beforeAll(async () => {
    source = await startService(factory);
    target = await startService(factory);
    importer = await icsImporter(target);
  });
  afterAll(async () => {
    await importer.close();
    await source.close();
    await target.close();
  });

  /** What the REST list says of every event, but for row ids (the target store numbers its rows itself). */
  const answers = async (svc: Service) => {
    const res = await svc.get('/events', { query: WIDE });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- REST bodies
    return res.body.events.map((e: any) => ({
      title: e.title,
      slug: e.slug,
      description: e.description,
      url: e.url,
      website: e.website,
      start_date: e.start_date,
      end_date: e.end_date,
      utc_start_date: e.utc_start_date,
      utc_end_date: e.utc_end_date,
      timezone: e.timezone,
      all_day: e.all_day,
      venue: Array.isArray(e.venue)
        ? e.venue
        : { venue: e.venue.venue, geo_lat: e.venue.geo_lat, geo_lng: e.venue.geo_lng },
      organizer: e.organizer.map((o: { organizer: string; email: string }) => [o.organizer, o.email]),
      categories: e.categories.map((c: { name: string; slug: string }) => [c.name, c.slug]),
    }));
  };

  it('imports our own feed into an empty store with the same REST answers', async () => {
    await createEvent(source, {
      title: 'Concert',
      description: 'An evening of music',
      start_date: '2026-03-10 20:00:00',
      end_date: '2026-03-10 22:30:00',
      timezone: 'Europe/Paris',
      venue: { venue: 'Hall', geo_lat: 48.1, geo_lng: 2.2 },
      organizer: [{ organizer: 'Ann Lee', email: 'ann@example.test' }],
      categories: ['Music', 'Evening'],
    });
    await createEvent(source, {
      title: 'Fair',
      start_date: '2026-03-12',
      end_date: '2026-03-13',
      all_day: true,
    });
    const series = await createEvent(source, {
      title: 'Club',
      start_date: '2026-03-02 18:00:00',
      end_date: '2026-03-02 19:00:00',
      timezone: 'America/New_York',
      recurrence: { rrule: 'FREQ=WEEKLY;COUNT=6', exdate: ['2026-03-16'], rdate: ['2026-04-20 18:00'] },
    });
    const list = await source.get('/events', { query: { ...WIDE, post_parent: series.id } });
    const [second, third] = list.body.events as Array<{ id: number }>;
    expect(
      (
        await source.request('PATCH', `/events/${second!.id}`, {
          json: { title: 'Club (special)' },
          as: 'administrator',
        })
      ).status,
    ).toBe(200);
    expect((await source.request('DELETE', `/events/${third!.id}`, { as: 'administrator' })).status).toBe(200);
    const feed = await source.get('/wp-json/tribe/events/v1/events.ics', {
      query: { start_date: '2000-01-01', end_date: '2100-01-01' },
    });
    expect(feed.status).toBe(200);
    const r = await importer.run(feed.text, {}, 'http://wordpress.test/events/?ical=1');
    expect(r.refused).toEqual([]);
    const want = await answers(source);
    expect(want.length).toBeGreaterThan(6);
    expect(await answers(target)).toEqual(want);
    // Importing the same feed again changes nothing.
    expect(await importer.run(feed.text, {}, 'http://wordpress.test/events/?ical=1')).toMatchObject({
      created: 0,
      updated: 0,
      trashed: 0,
    });
  });
});
