import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/db/index.ts';
import { TecImportError } from '../src/import/index.ts';
import { PASSWORD, STORES, countWritten, createEvent, startService, type Service } from './support/harness.ts';
import { BIN } from './support/serve-process.ts';
import { tecTarget } from './support/tec-import.ts';

// Issue 30 item 3, `events import tec URL --skip-bad`. The source is a second instance of this service holding items
// its own write rules refuse, written into its database behind its back (as an older plugin version or a direct
// database edit leaves them): a venue at latitude 999 and an event whose title is empty.

const AUTH = `administrator:${PASSWORD}`;

let source: Service;
const src = {} as { good: number; broken: number; guild: number; fine: number; atBroken: number; nameless: number };

beforeAll(async () => {
  source = await startService(STORES[0]!);
  const post = async (path: string, form: Record<string, unknown>) => {
    const res = await source.post(path, form);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
    return (res.body as { id: number }).id;
  };
  src.good = await post('/venues', { venue: 'Good hall', city: 'Ghent' });
  src.broken = await post('/venues', { venue: 'Broken hall', geo_lat: 51, geo_lng: 3 });
  src.guild = await post('/organizers', { organizer: 'Guild', email: 'guild@example.com' });
  src.fine = (await createEvent(source, { title: 'Fine', venue: src.good })).id;
  src.atBroken = (await createEvent(source, { title: 'At broken hall', venue: src.broken, organizer: [src.guild] })).id;
  src.nameless = (await createEvent(source, { title: 'Nameless' })).id;
  // Another connection, as another process would write.
  const raw = await openStore(source.dbUrl);
  try {
    await raw.db.updateTable('venues').set({ geo_lat: 999 }).where('post_id', '=', src.broken).execute();
    await raw.db.updateTable('posts').set({ title: '' }).where('id', '=', src.nameless).execute();
  } finally {
    await raw.close();
  }
  // The source's caches hear of the change a moment later (its change signal).
  const geoLat = async () => ((await source.get(`/venues/${src.broken}`)).body as { geo_lat?: number }).geo_lat;
  for (let i = 0; (await geoLat()) !== 999; i++) {
    if (i > 100) throw new Error('the source did not see the edit');
    await new Promise((r) => setTimeout(r, 30));
  }
});
afterAll(async () => {
  await source.close();
});

describe.each(STORES)('import tec with bad items into $name', (factory) => {
  const t = tecTarget(factory);

  it('refuses the whole import on the first bad item without --skip-bad, writing nothing', async () => {
    const before = await countWritten(t.target);
    const err = await t.importer.run(source.base, { auth: AUTH }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TecImportError);
    expect((err as TecImportError).kind).toBe('bad_items');
    expect((err as TecImportError).message).toMatch(/^venues \d+ \(broken-hall\) refused, nothing imported: geo_lat/);
    expect(await countWritten(t.target)).toEqual(before);
  });

  it('with --skip-bad imports the rest, lists each bad item and the event written without its venue', async () => {
    const dry = await t.importer.run(source.base, { auth: AUTH, skipBad: true, dryRun: true });
    const before = await countWritten(t.target);
    const r = await t.importer.run(source.base, { auth: AUTH, skipBad: true });
    expect(await countWritten(t.target)).not.toEqual(before);
    expect(dry).toMatchObject({ skipped: r.skipped, unlinked: r.unlinked, counts: r.counts });
    expect(r.skipped).toEqual([
      { kind: 'venues', id: src.broken, slug: 'broken-hall', reason: expect.stringMatching(/^geo_lat: /) },
      { kind: 'events', id: src.nameless, slug: 'nameless', reason: expect.stringMatching(/title/) },
    ]);
    expect(r.unlinked).toEqual([
      {
        event: `events ${src.atBroken} (at-broken-hall)`,
        reason: `written without venues ${src.broken} (broken-hall), which was skipped`,
      },
    ]);
    expect(r.counts.venues).toEqual({ created: 1, updated: 0, unchanged: 0 });
    expect(r.counts.organizers).toEqual({ created: 1, updated: 0, unchanged: 0 });
    expect(r.counts.events).toEqual({ created: 2, updated: 0, unchanged: 0 });
    // Ids kept (the target was empty); the skipped items are not there, half or whole.
    const venues = (await t.target.get('/venues', { as: 'administrator' })).body as { venues: Array<{ id: number }> };
    expect(venues.venues.map((v) => v.id)).toEqual([src.good]);
    // The plugin answers a venue id that is no venue with 400, an event id that is no event with 404.
    expect((await t.target.get(`/venues/${src.broken}`, { as: 'administrator' })).status).toBe(400);
    expect((await t.target.get(`/events/${src.nameless}`, { as: 'administrator' })).status).toBe(404);
    const fine = await t.target.get(`/events/${src.fine}`, { as: 'administrator' });
    expect((fine.body as { venue: { id: number } }).venue.id).toBe(src.good);
    const atBroken = (await t.target.get(`/events/${src.atBroken}`, { as: 'administrator' })).body as {
      title: string;
      venue: unknown;
      organizer: Array<{ id: number }>;
    };
    expect(atBroken.title).toBe('At broken hall');
    expect(atBroken.venue).toEqual([]);
    expect(atBroken.organizer.map((o) => o.id)).toEqual([src.guild]);
  });

  it('importing again with --skip-bad skips the same items and changes nothing else', async () => {
    const before = await countWritten(t.target);
    const r = await t.importer.run(source.base, { auth: AUTH, skipBad: true });
    expect(r.skipped.map((x) => x.id)).toEqual([src.broken, src.nameless]);
    expect(r.counts.events).toEqual({ created: 0, updated: 0, unchanged: 2 });
    expect(await countWritten(t.target)).toEqual(before);
  });
});

describe('events import tec --skip-bad', () => {
  it('exits 2 naming the bad item and the option; with it prints the skipped items and the event without its venue', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'events-cli-skip-bad-'));
    const db = `sqlite:${join(dir, 'target.sqlite')}`;
    const env = { ...process.env, EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: '1' };
    const events = (...args: string[]) =>
      promisify(execFile)(process.execPath, [BIN, ...args], { env }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
    try {
      expect((await events('user', 'add', 'admin', '--role', 'administrator', '--db', db)).code).toBe(0);
      const args = ['import', 'tec', source.base, '--auth', AUTH, '--db', db];
      const refused = await events(...args);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/venues \d+ \(broken-hall\) refused.*; --skip-bad imports the others\)/);
      const done = await events(...args, '--skip-bad');
      expect(done.code, done.stderr).toBe(0);
      expect(done.stdout).toContain('events: 2 created, 0 updated, 0 unchanged');
      expect(done.stdout).toContain('skipped (refused by the write rules): 2');
      expect(done.stdout).toMatch(new RegExp(`venues ${src.broken} \\(broken-hall\\) skipped: geo_lat: `));
      expect(done.stdout).toContain(`events ${src.nameless} (nameless) skipped: `);
      expect(done.stdout).toContain(
        `events ${src.atBroken} (at-broken-hall): written without venues ${src.broken} (broken-hall), which was skipped`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
