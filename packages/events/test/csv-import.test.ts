import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, countWritten, startService, type Service } from './support/harness.ts';
import { makeImages, startImageServer } from './support/image-server.ts';

// Issue 30 item 1: the plugin's CSV importer, over the REST route and the CLI, on both stores. Every row passes the
// REST create's rules; a bad row refuses the file (nothing written) unless skip_bad; importing again adds nothing.

const ROUTE = '/wp-json/events-service/v1/import/csv';
const BIN = fileURLToPath(new URL('../bin/events.js', import.meta.url));
const run = promisify(execFile);

const EVENTS_CSV = [
  'Event Name,Event Description,Event Start Date,Event Start Time,Event End Date,Event End Time,All Day Event,Event Time Zone,Event Venue Name,Event Organizer Name,Event Cost,Event Currency Symbol,Event Category,Event Tags,Event Website,Notes',
  'Jazz night,"Live music,\nall night",2025-07-04,7:30 pm,2025-07-04,23:00,no,Europe/Paris,Blue Room,"Ann Lee, Bob Ray",10,$,"Music, Jazz",late,https://jazz.test/,ignored',
  'Picnic,,7/5/2025,,,,yes,,Park,,,,Outdoor,,,',
  'Market,,06-07-2025,09:00,06-07-2025,13:00,,,Park,Ann Lee,,,,,,',
].join('\n');

describe.each(STORES)('CSV import ($name)', (factory) => {
  let svc: Service;
  let host: Awaited<ReturnType<typeof startImageServer>>;
  beforeAll(async () => {
    host = await startImageServer(await makeImages());
    svc = await startService(factory, { env: { EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: '1' } });
  });
  afterAll(async () => {
    await svc.close();
    await host.close();
  });
  const importCsv = (body: Record<string, unknown>, as: 'administrator' | 'editor' = 'administrator') =>
    svc.request('POST', ROUTE, { json: body, as });
  const eventNamed = async (title: string) => {
    const list = await svc.get('/events', {
      query: { search: title, start_date: '2000-01-01', end_date: '2100-01-01', per_page: 50 },
      as: 'administrator',
    });
    return list.body.events.find((e: { title: string }) => e.title === title);
  };

  it("imports the plugin's columns: dates in its three shapes, venue, organizers, terms and cost as the REST create stores them", async () => {
    // An anonymous list answered (and cached) before the import shows the imported events right after it.
    const window = { start_date: '2025-07-01', end_date: '2025-07-31' };
    expect((await svc.get('/events', { query: window })).body.total).toBe(0);
    const res = await importCsv({ type: 'events', csv: EVENTS_CSV });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      type: 'events',
      dryRun: false,
      rows: 3,
      created: 3,
      existing: 0,
      refused: [],
      ignoredColumns: ['Notes'],
    });
    const jazz = await eventNamed('Jazz night');
    expect(jazz).toMatchObject({
      start_date: '2025-07-04 19:30:00',
      end_date: '2025-07-04 23:00:00',
      timezone: 'Europe/Paris',
      all_day: false,
      cost: '$10',
      website: 'https://jazz.test/',
      venue: { venue: 'Blue Room' },
      description: '<p>Live music,<br />\nall night</p>',
    });
    expect(jazz.organizer.map((o: { organizer: string }) => o.organizer)).toEqual(['Ann Lee', 'Bob Ray']);
    expect(jazz.categories.map((c: { name: string }) => c.name).sort()).toEqual(['Jazz', 'Music']);
    expect(jazz.tags.map((c: { name: string }) => c.name)).toEqual(['late']);
    const picnic = await eventNamed('Picnic');
    expect(picnic).toMatchObject({ start_date: '2025-07-05 00:00:00', end_date: '2025-07-05 23:59:59', all_day: true });
    const market = await eventNamed('Market');
    // European d-m-Y: 6 July. Venue and organizer linked by name, not created twice.
    expect(market).toMatchObject({ start_date: '2025-07-06 09:00:00', end_date: '2025-07-06 13:00:00' });
    expect(market.venue.id).toBe(picnic.venue.id);
    expect(market.organizer[0].id).toBe(jazz.organizer[0].id);
    expect((await svc.get('/events', { query: window })).body.total).toBe(3);
  });

  it('adds nothing and changes nothing when the same file is imported again (key: name and start)', async () => {
    const before = await countWritten(svc);
    const etag = (await svc.get(`/events/${(await eventNamed('Jazz night')).id}`)).headers.get('etag');
    const res = await importCsv({ type: 'events', csv: EVENTS_CSV });
    expect(res.body).toMatchObject({ created: 0, existing: 3, refused: [] });
    expect(await countWritten(svc)).toEqual(before);
    expect((await svc.get(`/events/${(await eventNamed('Jazz night')).id}`)).headers.get('etag')).toBe(etag);
  });

  it("refuses the whole file with every bad row's line and reason, writing nothing", async () => {
    const before = await countWritten(svc);
    const csv =
      'Event Name,Event Start Date,Event End Date,Event Time Zone,Event Website\nGood one,2026-01-01,2026-01-01,,\n' +
      'Bad date,2026-02-30,,,\n"Multi\nline",2026-01-02,2026-01-02,Mars/Base,\nBad site,2026-01-03,2026-01-03,,not a url\nNo date,,,,\n';
    const res = await importCsv({ type: 'events', csv });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('csv_invalid');
    expect(res.body.data.problems).toEqual([
      { line: 3, reason: 'Event Start Date "2026-02-30" is not a date (use YYYY-MM-DD, m/d/Y or d-m-Y)' },
      { line: 4, reason: 'timezone: Invalid parameter.' },
      { line: 6, reason: 'website: Invalid parameter.' },
      { line: 7, reason: 'Missing parameter(s): start_date, end_date' },
    ]);
    expect(await countWritten(svc)).toEqual(before);
    const dry = await importCsv({ type: 'events', csv, dry_run: true, skip_bad: true });
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({
      dryRun: true,
      created: 1,
      refused: [{ line: 3 }, { line: 4 }, { line: 6 }, { line: 7 }],
    });
    expect(await countWritten(svc)).toEqual(before);
    const skipped = await importCsv({ type: 'events', csv, skip_bad: true });
    expect(skipped.body).toMatchObject({ created: 1, refused: [{ line: 3 }, { line: 4 }, { line: 6 }, { line: 7 }] });
    expect(await eventNamed('Good one')).toBeDefined();
  });

  it('refuses a row the write itself refuses (a UTC year out of range) and undoes the rows before it', async () => {
    const before = await countWritten(svc);
    const res = await importCsv({
      type: 'events',
      csv: 'Event Name,Event Start Date,Event Time Zone\nFine,2026-03-01,\nFar,9999-12-31 23:00,Pacific/Honolulu\n',
    });
    expect(res.status).toBe(400);
    expect(res.body.data.problems).toEqual([expect.objectContaining({ line: 3 })]);
    expect(await countWritten(svc)).toEqual(before);
  });

  it("imports venues and organizers by the plugin's columns, keyed by name, with a column map for other headers", async () => {
    const venues =
      'Venue Name,Venue Address,Venue City,Venue State/Province,Venue Zip,Venue Country,Venue Phone,Venue Website\n' +
      'Hall A,1 Main St,Springfield,IL,62701,United States,555-0100,https://hall.test/\nHalle B,2 Rue X,Lyon,Rhône,69001,France,,\n';
    const res = await importCsv({ type: 'venues', csv: venues });
    expect(res.body).toMatchObject({ created: 2, existing: 0 });
    const hall = (await svc.get('/venues', { query: { search: 'Springfield' } })).body.venues[0];
    expect(hall).toMatchObject({
      venue: 'Hall A',
      address: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
      stateprovince: 'IL',
      website: 'https://hall.test/',
    });
    expect((await importCsv({ type: 'venues', csv: venues })).body).toMatchObject({ created: 0, existing: 2 });
    const orgs = 'Who,Mail,Organizer Phone\nZoe Q,zoe@example.test,123\n';
    const mapped = await importCsv({
      type: 'organizers',
      csv: orgs,
      map: { Who: 'Organizer Name', Mail: 'organizer_email' },
    });
    expect(mapped.body).toMatchObject({ created: 1, ignoredColumns: [] });
    const zoe = (await svc.get('/organizers', { query: { search: 'zoe@example.test' }, as: 'administrator' })).body
      .organizers[0];
    expect(zoe).toMatchObject({ organizer: 'Zoe Q', email: 'zoe@example.test', phone: '123' });
    const unmapped = await importCsv({ type: 'organizers', csv: orgs });
    expect(unmapped.status).toBe(400);
    expect(unmapped.body.message).toContain('no "Organizer Name" column');
    const badMap = await importCsv({ type: 'organizers', csv: orgs, map: { Who: 'Shoe Size' } });
    expect(badMap.body.message).toContain('organizers have no column "Shoe Size"');
  });

  it('fetches featured images by URL through the safe fetch, once per URL', async () => {
    const csv = `Event Name,Event Start Date,Event Featured Image\nPoster 1,2026-04-01,${host.url}/photo.jpg\nPoster 2,2026-04-02,${host.url}/photo.jpg\n`;
    const hits = host.hits();
    expect((await importCsv({ type: 'events', csv })).body).toMatchObject({ created: 2 });
    const [p1, p2] = [await eventNamed('Poster 1'), await eventNamed('Poster 2')];
    expect(p1.image.id).toBeGreaterThan(0);
    expect(p2.image.id).toBe(p1.image.id);
    expect(host.hits() - hits).toBe(1);
    const bad = await importCsv({
      type: 'events',
      csv: `Event Name,Event Start Date,Event Featured Image\nNo image,2026-04-03,${host.url}/notes.txt\n`,
    });
    expect(bad.body.data.problems).toEqual([{ line: 2, reason: 'image: Invalid parameter.' }]);
  });

  it("enforces its limits and the file's shape before any row is written", async () => {
    const before = await countWritten(svc);
    const longField = `Event Name,Event Start Date\n${'x'.repeat(70_000)},2026-01-01\n`;
    const long = await importCsv({ type: 'events', csv: longField });
    expect(long.status).toBe(413);
    expect(long.body).toMatchObject({
      code: 'csv_too_large',
      message: expect.stringContaining('longer than 65536 characters'),
    });
    const unclosed = await importCsv({ type: 'events', csv: 'Event Name,Event Start Date\n"Open,2026-01-01\n' });
    expect(unclosed.body).toMatchObject({ code: 'csv_invalid', message: expect.stringContaining('Quote Not Closed') });
    const ragged = await importCsv({ type: 'events', csv: 'Event Name,Event Start Date\nA,2026-01-01,extra\n' });
    expect(ragged.body.message).toContain('Invalid Record Length');
    expect((await importCsv({ type: 'events', csv: '' })).body.message).toContain('the file is empty');
    expect((await importCsv({ type: 'shows', csv: 'a' })).body).toMatchObject({ code: 'rest_invalid_param' });
    // The route's body is bounded before the file is parsed (EVENTS_BODY_LIMIT, 1 MiB by default).
    const huge = await importCsv({
      type: 'events',
      csv: `Event Name,Event Start Date\n${'Big,2026-01-01\n'.repeat(80_000)}`,
    });
    expect(huge.status).toBe(413);
    expect(await countWritten(svc)).toEqual(before);
  });

  it('is for administrators only', async () => {
    expect((await importCsv({ type: 'events', csv: EVENTS_CSV }, 'editor')).status).toBe(403);
    expect((await svc.request('POST', ROUTE, { json: { type: 'events', csv: EVENTS_CSV } })).status).toBe(401);
  });

  it('runs from the CLI with --dry-run, --skip-bad and --map, refusing non-UTF-8 files and too many rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'events-csv-'));
    try {
      const cli = (...args: string[]) =>
        run(process.execPath, [BIN, 'import', 'csv', ...args, '--db', svc.dbUrl], {
          env: { ...process.env, EVENTS_UPLOADS_DIR: svc.uploadsDir },
        }).then(
          ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
          (err: { code: number; stdout: string; stderr: string }) => err,
        );
      const file = join(dir, 'cli.csv');
      writeFileSync(file, 'Title,When\nCLI event,2026-05-01 10:00\nBroken,someday\n');
      const refused = await cli(
        file,
        '--type',
        'events',
        '--map',
        'Title=Event Name',
        '--map',
        'When=Event Start Date',
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('line 3: Event Start Date "someday" is not a date');
      const dry = await cli(
        file,
        '--type',
        'events',
        '--map',
        'Title=Event Name',
        '--map',
        'When=Event Start Date',
        '--skip-bad',
        '--dry-run',
      );
      expect(dry.stdout).toContain('dry run: would import 1 of 2 events rows');
      expect(await eventNamed('CLI event')).toBeUndefined();
      const done = await cli(
        file,
        '--type',
        'events',
        '--map',
        'Title=Event Name',
        '--map',
        'When=Event Start Date',
        '--skip-bad',
      );
      expect(done.stdout).toContain('imported 1 of 2 events rows; 0 already present, 1 refused');
      expect(await eventNamed('CLI event')).toMatchObject({
        start_date: '2026-05-01 10:00:00',
        author: String(svc.userIds.administrator),
      });
      writeFileSync(
        file,
        Buffer.concat([
          Buffer.from('Event Name,Event Start Date\nCaf'),
          Buffer.from([0xe9]),
          Buffer.from(',2026-01-01\n'),
        ]),
      );
      const latin1 = await cli(file, '--type', 'events');
      expect(latin1.stderr).toContain('the file is not UTF-8 text (at byte 31)');
      writeFileSync(file, `Event Name,Event Start Date\n${'E,2026-01-01\n'.repeat(50_001)}`);
      expect((await cli(file, '--type', 'events')).stderr).toContain('more than 50000 rows');
      // The size is checked before the file is read (a sparse 21 MiB file costs no disk).
      truncateSync(file, 21 * 1024 * 1024);
      expect((await cli(file, '--type', 'events')).stderr).toContain(
        `has ${21 * 1024 * 1024} bytes; at most ${20 * 1024 * 1024} are accepted`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
