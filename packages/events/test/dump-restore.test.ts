import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/db/index.ts';
import { postRepository } from '../src/post/index.ts';
import { DumpError, exportDump, restoreDump } from '../src/dump/index.ts';
import { subscriptionRepository } from '../src/import/subscription/index.ts';
import { userService } from '../src/user/index.ts';
import { webhookRepository } from '../src/webhook/index.ts';
import { STORES, createEvent, startService, startSibling, type Service, type StoreFactory } from './support/harness.ts';
import { makeImages, startImageServer } from './support/image-server.ts';

// Issue 30 item 4: `events export` / `events import dump` move a site between stores with every id, slug, date,
// author, password hash, image, series and application password; the restored store answers every GET byte for byte
// as the source did, ETags included, and back again.

const BIN = fileURLToPath(new URL('../bin/events.js', import.meta.url));
const run = promisify(execFile);

/**
 * A Writable that keeps the text; `hold` makes it stop after the first line until `release` (an export in flight).
 * `started` resolves on the first line: the export writes its header only once its snapshot is open.
 */
function sink(hold = false) {
  let text = '';
  let release: () => void = () => undefined;
  let begin: () => void = () => undefined;
  const started = new Promise<void>((r) => {
    begin = r;
  });
  const gate = hold
    ? new Promise<void>((r) => {
        release = r;
      })
    : Promise.resolve();
  const out = new Writable({
    highWaterMark: 1,
    write(chunk, _enc, done) {
      text += String(chunk);
      begin();
      void gate.then(() => done());
    },
  });
  return { out, started, text: () => text, release: () => release() };
}

async function* linesOf(text: string): AsyncIterable<string> {
  yield* text.split('\n').filter((l, i, a) => l !== '' || i < a.length - 1);
}

type Answer = {
  url: string;
  as: string;
  status: number;
  etag: string | null;
  lastModified: string | null;
  text: string;
};

describe.each(STORES)('export and restore from $name', (factory) => {
  const other = STORES.find((s) => s !== factory)!;
  let svc: Service;
  let host: Awaited<ReturnType<typeof startImageServer>>;
  const made: Array<{ dispose(): Promise<void> }> = [];
  const urls: string[] = [];
  beforeAll(async () => {
    host = await startImageServer(await makeImages());
    svc = await startService(factory, { env: { EVENTS_MEDIA_ALLOW_PRIVATE_HOSTS: '1' } });
    const concert = await createEvent(svc, {
      title: 'Concert',
      description: 'Loud <b>music</b>',
      venue: { venue: 'Hall', city: 'Oslo', address: '1 Way' },
      organizer: [{ organizer: 'Ann', email: 'ann@example.test' }, { organizer: 'Bob' }],
      categories: ['Music', 'Live'],
      tags: ['late'],
      cost: '$10 - $20',
      image: `${host.url}/photo.jpg`,
      status: 'publish',
      featured: 'true',
      timezone: 'Europe/Oslo',
    });
    const series = await createEvent(svc, {
      title: 'Weekly club',
      recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4', exdate: ['2018-01-26'] },
      status: 'publish',
      categories: ['Live'],
    });
    const draft = await createEvent(svc, { title: 'Secret plan', status: 'draft' }, 'author');
    const trashed = await createEvent(svc, { title: 'Gone', status: 'publish' });
    expect((await svc.request('DELETE', `/events/${trashed.id}`, { as: 'administrator' })).status).toBe(200);
    const locked = await createEvent(svc, { title: 'Members only', status: 'publish', venue: concert.venue.id });
    await postRepository(svc.store.db).setPassword(locked.id, 'open sesame');
    const list = (
      await svc.get('/events', {
        query: { per_page: 50, start_date: '2000-01-01', end_date: '2100-01-01', status: 'any' },
        as: 'administrator',
      })
    ).body.events;
    expect(list.length).toBeGreaterThanOrEqual(6);
    // iCalendar import state (dump version 2): subscriptions and VEVENT links, with keys whose byte order differs
    // from a locale's (upper case before lower, accents after), so both stores must order them alike.
    const subs = subscriptionRepository(svc.store.db);
    await subs.add(
      { url: 'https://feeds.test/Zürich.ics', everySeconds: 3600, trashVanished: true, authorId: null },
      1_764_350_000_123,
    );
    await subs.add(
      { url: 'https://feeds.test/a.ics', everySeconds: 86_400, trashVanished: false, authorId: 1 },
      1_764_350_000_456,
    );
    // Webhook subscriptions (dump version 3), their secrets with them; the outbox is not carried.
    await webhookRepository(svc.store.db).add(
      'https://hooks.test/in',
      'whsec_c2VjcmV0',
      ['event.created'],
      1_764_350_000_789,
    );
    for (const [uid, recurrence_id] of [
      ['b@x', ''],
      ['é@x', ''],
      ['B@x', ''],
      ['a@x', '2018-01-19 10:00:00'],
      ['a@x', ''],
    ] as const)
      await svc.store.db
        .insertInto('ical_links')
        .values({ uid, recurrence_id, source: 'https://feeds.test/a.ics', post_id: series.id, digest: `d-${uid}` })
        .execute();
    // A user as `events import tec` makes them: no application password.
    const imported = await userService(svc.store.db).addImported({
      login: 'jo-smith',
      role: 'editor',
      email: 'jo@example.com',
      url: 'https://jo.example.org',
      displayName: 'Jo Smith',
      created: '2017-03-04 05:06:07',
    });
    // Links of `events import tec` (dump version 4), sources whose byte order differs from a locale's.
    for (const [source, kind, source_id, local_id] of [
      ['zürich.test/wp-json/tribe/events/v1', 'events', 7, concert.id],
      ['Zeta.test/wp-json/tribe/events/v1', 'venues', 12, concert.venue.id],
      ['a.test/wp-json/tribe/events/v1', 'events', 30, series.id],
      ['a.test/wp-json/tribe/events/v1', 'events', 4, draft.id],
      ['a.test/wp-json/tribe/events/v1', 'categories', 9, concert.categories[0].id],
      ['a.test/wp-json/tribe/events/v1', 'users', 3, imported],
    ] as const)
      await svc.store.db.insertInto('tec_links').values({ source, kind, source_id, local_id }).execute();
    urls.push(
      '/events?per_page=50&start_date=2000-01-01&end_date=2100-01-01',
      '/events?per_page=2&page=2&start_date=2000-01-01&end_date=2100-01-01',
      '/venues',
      '/organizers',
      '/categories',
      '/tags',
      `/venues/${concert.venue.id}`,
      `/organizers/${concert.organizer[1].id}`,
      `/events/by-slug/${concert.slug}`,
      `/events/${locked.id}?password=open%20sesame`,
      `/events/${draft.id}`,
      `/events/${trashed.id}`,
      `/events/${series.id}`,
      '/wp-json/wp/v2/users/me',
      '/wp-json/wp/v2/users?context=edit&per_page=100',
      '/wp-json/wp/v2/users?per_page=2&page=2',
      `/wp-json/wp/v2/users/${imported}?context=edit`,
      ...list.map((e: { id: number }) => `/events/${e.id}`),
    );
  });
  afterAll(async () => {
    await svc.close();
    await host.close();
    for (const m of made) await m.dispose();
  });

  const answers = async (get: Service['get']): Promise<Answer[]> => {
    const out: Answer[] = [];
    for (const url of urls) {
      for (const as of ['anonymous', 'administrator', 'author'] as const) {
        const res = await get(url, as === 'anonymous' ? {} : { as });
        out.push({
          url,
          as,
          status: res.status,
          etag: res.headers.get('etag'),
          lastModified: res.headers.get('last-modified'),
          text: res.text,
        });
      }
    }
    return out;
  };
  const restoreInto = async (kind: StoreFactory, dump: string, uploadsDir?: string) => {
    const db = await kind.create();
    made.push(db);
    const store = await openStore(db.url);
    try {
      await restoreDump(store, linesOf(dump), uploadsDir);
    } finally {
      await store.close();
    }
    return db.url;
  };
  /** Every file under a folder, by relative path, with its bytes. */
  const filesIn = (dir: string): Record<string, string> =>
    Object.fromEntries(
      (readdirSync(dir, { recursive: true }) as string[])
        .filter((f) => f.includes('.'))
        .sort()
        .map((f) => [f, readFileSync(join(dir, f)).toString('base64')]),
    );

  it(`restores into ${other.name} and back with byte-identical GET answers, ETags included`, async () => {
    const before = await answers(svc.get);
    expect(before.filter((a) => a.status === 200).length).toBeGreaterThan(30);
    expect(before.every((a) => a.status !== 200 || a.etag !== null)).toBe(true);
    const first = sink();
    const exported = await exportDump(svc.dbUrl, first.out, Date.now(), svc.uploadsDir);
    // The imported photo and its generated sizes travel with the rows.
    expect(exported.files).toBeGreaterThan(1);
    expect(exported.missingFiles).toEqual([]);
    const rowsOf = (text: string, table: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith(`{"table":"${table}"`))
        .map((l) => (JSON.parse(l) as { row: Record<string, unknown> }).row);
    expect(rowsOf(first.text(), 'ical_links').map((r) => [r.uid, r.recurrence_id])).toEqual([
      ['B@x', ''],
      ['a@x', ''],
      ['a@x', '2018-01-19 10:00:00'],
      ['b@x', ''],
      ['é@x', ''],
    ]);
    expect(rowsOf(first.text(), 'ical_subscriptions')).toMatchObject([
      { url: 'https://feeds.test/Zürich.ics', every_seconds: 3600, next_run_ms: 1_764_350_000_123, author_id: null },
      { url: 'https://feeds.test/a.ics', trash_vanished: 0, next_run_ms: 1_764_350_000_456 },
    ]);
    expect(rowsOf(first.text(), 'tec_links').map((r) => [r.source, r.kind, r.source_id])).toEqual([
      ['Zeta.test/wp-json/tribe/events/v1', 'venues', 12],
      ['a.test/wp-json/tribe/events/v1', 'categories', 9],
      ['a.test/wp-json/tribe/events/v1', 'events', 4],
      ['a.test/wp-json/tribe/events/v1', 'events', 30],
      ['a.test/wp-json/tribe/events/v1', 'users', 3],
      ['zürich.test/wp-json/tribe/events/v1', 'events', 7],
    ]);
    expect(rowsOf(first.text(), 'webhook_subscriptions')).toMatchObject([
      {
        url: 'https://hooks.test/in',
        secret: 'whsec_c2VjcmV0',
        event_types: ',event.created,',
        created_ms: 1_764_350_000_789,
      },
    ]);
    const uploads = mkdtempSync(join(tmpdir(), 'events-restored-uploads-'));
    made.push({ dispose: async () => rmSync(uploads, { recursive: true, force: true }) });
    const otherUrl = await restoreInto(other, first.text(), uploads);
    expect(filesIn(uploads)).toEqual(filesIn(svc.uploadsDir));
    const there = await startSibling(svc, { dbUrl: otherUrl });
    try {
      expect(await answers(there.get)).toEqual(before);
    } finally {
      await there.close();
    }
    const second = sink();
    await exportDump(otherUrl, second.out, Date.now(), uploads);
    // The same rows, whichever store wrote them: only the header (source, time) differs.
    expect(second.text().split('\n').slice(1)).toEqual(first.text().split('\n').slice(1));
    const backUrl = await restoreInto(factory, second.text());
    const back = await startSibling(svc, { dbUrl: backUrl });
    try {
      expect(await answers(back.get)).toEqual(before);
      // Ids continue after the source's: the next event gets the id the source would have given it.
      const next = await back.request('POST', '/events', {
        form: { title: 'After', start_date: '2018-02-01 10:00', end_date: '2018-02-01 11:00' },
        as: 'editor',
      });
      const mine = await createEvent(svc, { title: 'After' }, 'editor');
      expect(next.body.id).toBe(mine.id);
    } finally {
      await back.close();
    }
  });

  it('exports one consistent snapshot while the service keeps writing', async () => {
    const held = sink(true);
    const exporting = exportDump(svc.dbUrl, held.out, Date.now());
    // Waiting on a clock raced a loaded machine (the write landed before the snapshot opened); the header proves it open.
    await held.started;
    // Written after the export's snapshot began: not in this dump.
    const late = await createEvent(svc, { title: 'Written during export', status: 'publish' });
    held.release();
    const { rows } = await exporting;
    const text = held.text();
    expect(text).not.toContain('Written during export');
    expect(JSON.parse(text.trim().split('\n').at(-1)!)).toEqual({ end: true, rows, files: 0 });
    const url = await restoreInto(other, text);
    const copy = await startSibling(svc, { dbUrl: url });
    try {
      expect((await copy.get(`/events/${late.id}`)).status).toBe(404);
    } finally {
      await copy.close();
    }
  });

  it('refuses a store that is not empty, and files that are not whole dumps, leaving the store as it was', async () => {
    const good = sink();
    await exportDump(svc.dbUrl, good.out, Date.now());
    const lines = good.text().trim().split('\n');
    const refusal = async (text: string, kind: string) => {
      const db = await other.create();
      made.push(db);
      const store = await openStore(db.url);
      try {
        const err = await restoreDump(store, linesOf(text)).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(DumpError);
        expect((err as DumpError).kind).toBe(kind);
        const { posts } = { posts: await store.db.selectFrom('posts').select('id').execute() };
        expect(posts).toEqual([]);
        return (err as DumpError).message;
      } finally {
        await store.close();
      }
    };
    expect(await refusal(lines.slice(0, -1).join('\n'), 'truncated')).toContain('cut short');
    expect(
      await refusal([...lines.slice(0, 5), '{"table":"posts","row":', ...lines.slice(5)].join('\n'), 'malformed'),
    ).toMatch(/line 6 is not JSON/);
    expect(
      await refusal([lines[0]!.replace('"version":4', '"version":99'), ...lines.slice(1)].join('\n'), 'version'),
    ).toContain('version 99');
    expect(await refusal('{"hello":"world"}', 'not_a_dump')).toContain('not an events dump');
    // Version 1 (before the iCalendar state) still restores; iCalendar rows in a version-1 file are refused.
    const v1Header = lines[0]!.replace('"version":4', '"version":1');
    const ical = (l: string) => /^\{"table":"(ical_|webhook_|tec_)/.test(l);
    const v1Rows = lines.slice(1, -1).filter((l) => !ical(l));
    expect(lines.slice(1, -1).filter(ical).length).toBe(14);
    expect(await refusal([v1Header, ...lines.slice(1)].join('\n'), 'malformed')).toMatch(
      /line \d+: expected .* \(dump version 1\)/,
    );
    {
      const db = await other.create();
      made.push(db);
      const store = await openStore(db.url);
      try {
        const report = await restoreDump(
          store,
          linesOf([v1Header, ...v1Rows, JSON.stringify({ end: true, rows: v1Rows.length, files: 0 })].join('\n')),
        );
        expect(report.rows).toBe(v1Rows.length);
        expect(report.tables).not.toHaveProperty('ical_links');
        expect(await store.db.selectFrom('ical_subscriptions').select('url').execute()).toEqual([]);
      } finally {
        await store.close();
      }
    }
    // Version 3 (before the links of `events import tec`) restores with no links; link rows in it are refused, and
    // so is a link row without its local id in a version-4 file.
    const v3Header = lines[0]!.replace('"version":4', '"version":3');
    const tec = (l: string) => l.startsWith('{"table":"tec_links"');
    const v3Rows = lines.slice(1, -1).filter((l) => !tec(l));
    expect(await refusal([v3Header, ...lines.slice(1)].join('\n'), 'malformed')).toMatch(/\(dump version 3\)/);
    {
      const db = await other.create();
      made.push(db);
      const store = await openStore(db.url);
      try {
        const trailer = JSON.stringify({ end: true, rows: v3Rows.length, files: 0 });
        const report = await restoreDump(store, linesOf([v3Header, ...v3Rows, trailer].join('\n')));
        expect(report.tables).toMatchObject({ webhook_subscriptions: 1 });
        expect(report.tables).not.toHaveProperty('tec_links');
        expect(await store.db.selectFrom('tec_links').selectAll().execute()).toEqual([]);
      } finally {
        await store.close();
      }
    }
    const brokenLink = lines.map((l) => (tec(l) ? l.replace(/,"local_id":\d+/, '') : l));
    expect(await refusal(brokenLink.join('\n'), 'malformed')).toMatch(/tec_links rows before line \d+ were refused/);
    expect(
      await refusal([lines[0]!, ...lines.slice(1, -1), '{"end":true,"rows":3}'].join('\n'), 'truncated'),
    ).toContain('trailer counts 3');
    const reordered = [lines[0]!, ...lines.slice(1, -1).reverse(), lines.at(-1)!].join('\n');
    expect(await refusal(reordered, 'malformed')).toMatch(/rows after/);
    // Files go only into the uploads folder's layout, never elsewhere, and never over an existing file.
    const outside = mkdtempSync(join(tmpdir(), 'events-outside-'));
    made.push({ dispose: async () => rmSync(outside, { recursive: true, force: true }) });
    const evil = (file: string) =>
      [lines[0]!, JSON.stringify({ file, data: 'AAAA' }), '{"end":true,"rows":0,"files":1}'].join('\n');
    const refusedFile = async (file: string) => {
      const db = await other.create();
      made.push(db);
      const store = await openStore(db.url);
      try {
        return await restoreDump(store, linesOf(evil(file)), join(outside, 'uploads')).catch((e: unknown) => e);
      } finally {
        await store.close();
      }
    };
    for (const file of ['../escape.jpg', '2018/01/../../../escape.jpg', '/etc/passwd', '2018/01/.hidden']) {
      expect(await refusedFile(file), file).toMatchObject({
        kind: 'malformed',
        message: expect.stringContaining('is not an uploads path'),
      });
    }
    expect(existsSync(join(outside, 'escape.jpg'))).toBe(false);
    writeFileSync(join(outside, 'taken.jpg'), 'x');
    expect(await refusedFile('2018/01/ok.jpg')).toMatchObject({ rows: 0, files: 1 });
    expect(await refusedFile('2018/01/ok.jpg')).toMatchObject({
      kind: 'not_empty',
      message: expect.stringContaining('a file of that name exists'),
    });
    // The service's own store is not empty.
    const dir = mkdtempSync(join(tmpdir(), 'events-dump-'));
    try {
      const file = join(dir, 'dump.jsonl');
      writeFileSync(file, good.text());
      const res = await run(process.execPath, [BIN, 'import', 'dump', file, '--db', svc.dbUrl]).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(res).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('the target store is not empty (users has'),
      });
      const exported = await run(process.execPath, [BIN, 'export', '--db', svc.dbUrl], { maxBuffer: 64 * 2 ** 20 });
      expect(JSON.parse(exported.stdout.split('\n')[0]!)).toMatchObject({
        format: 'events-dump',
        version: 4,
        source: factory.name,
      });
      const target = await other.create();
      made.push(target);
      const restored = await run(process.execPath, [BIN, 'import', 'dump', file, '--db', target.url]);
      expect(restored.stdout).toMatch(
        /^restored \d+ rows and \d+ image files from a .* dump: users 6, app_passwords 5, posts/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
