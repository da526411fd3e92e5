import { describe, expect, it } from 'vitest';
import { PASSWORD, STORES, countWritten } from './support/harness.ts';
import { tecTarget, type TecImporter } from './support/tec-import.ts';
import { makeImages, startImageServer } from './support/image-server.ts';
import { json, recordedAnswer, startTecSource, type Answer } from './support/tec-source-server.ts';
import { TecImportError } from '../src/import/index.ts';

// Issue 30 item 3: `events import tec URL` against what a real site answers. (b) The conformance kit's recorded
// answers of the real plugin, one page per list, served from loopback. (c) Sources that answer badly: each refuses
// the import with an error naming the URL (and field), and nothing is written.

const EMPTY = { total: 0, total_pages: 0 };
const lists = (over: Record<string, Answer>): Record<string, Answer> => ({
  '/categories': json({ categories: [], ...EMPTY }),
  '/tags': json({ tags: [], ...EMPTY }),
  '/venues': json({ venues: [], ...EMPTY }),
  '/organizers': json({ organizers: [], ...EMPTY }),
  '/events': json({ events: [], ...EMPTY }),
  ...over,
});

// Steps of the kit's scenario (golden.json ids): every list in one page, as the real plugin answered them.
const recorded = {
  categories: recordedAnswer('238'),
  tags: recordedAnswer('240'),
  venues: recordedAnswer('226'),
  organizers: recordedAnswer('231'),
  events: recordedAnswer('098'),
};
type Row = { id: number; slug: string; [k: string]: unknown };
const rows = (list: keyof typeof recorded) => recorded[list][list] as Row[];

describe.each(STORES)('import tec from recorded and broken sources into $name', (factory) => {
  const t = tecTarget(factory);

  const refused = async (routes: Record<string, Answer>, opts: Parameters<TecImporter['run']>[1] = {}) => {
    const src = await startTecSource(lists(routes));
    const before = await countWritten(t.target);
    try {
      const err = await t.importer.run(src.url, opts).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TecImportError);
      expect(await countWritten(t.target)).toEqual(before);
      return err as TecImportError;
    } finally {
      await src.close();
    }
  };

  it('a 401 names the URL and asks for --auth', async () => {
    const err = await refused({ '/venues': json({ code: 'rest_forbidden', data: { status: 401 } }, 401) });
    expect(err.kind).toBe('auth');
    expect(err.message).toMatch(/\/wp-json\/tribe\/events\/v1\/venues\?.*answered 401 \(pass --auth/);
  });

  it('a 403 with credentials says to check them', async () => {
    const err = await refused({ '/tags': json({ code: 'rest_forbidden' }, 403) }, { auth: 'me:wrong' });
    expect(err.kind).toBe('auth');
    expect(err.message).toMatch(/answered 403 \(check the user and application password/);
  });

  it('an HTML page instead of JSON', async () => {
    const html: Answer = (_q, _u, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><body>Maintenance</body></html>');
    };
    const err = await refused({ '/categories': html });
    expect(err.kind).toBe('not_json');
    expect(err.message).toMatch(/categories\?.*: the answer is not JSON \(it starts with "<!DOCTYPE html>/);
  });

  it('an endless body is cut at the page limit', async () => {
    const endless: Answer = (_q, _u, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"events": [');
      const chunk = Buffer.alloc(16 * 1024, ' ');
      const push = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', push);
      };
      push();
    };
    const err = await refused({ '/events': endless }, { maxPageBytes: 256 * 1024 });
    expect(err.kind).toBe('too_large');
    expect(err.message).toMatch(/events\?.*larger than the limit \(262144 bytes\)/);
  });

  it('a malformed event names the field; the good lists before it are not written', async () => {
    const venue = { id: 7, slug: 'hall', venue: 'Hall' };
    const err = await refused({
      '/venues': json({ venues: [venue], total: 1, total_pages: 1 }),
      '/events': json({
        events: [{ id: 9, slug: 'x', title: 'X', start_date: '2030-01-01 10:00:00', end_date: 5 }],
        total: 1,
        total_pages: 1,
      }),
    });
    expect(err.kind).toBe('malformed');
    expect(err.message).toMatch(/events\?.*: \$\.events\[0\]\.end_date is not a string/);
  });

  it('an answer without its list', async () => {
    const err = await refused({ '/organizers': json({ total: 3, total_pages: 1 }) });
    expect(err.message).toMatch(/organizers\?.*: \$\.organizers is not an array/);
  });

  it('JSON of another shape: an array, or a string id', async () => {
    const array = await refused({ '/venues': json([{ id: 1 }]) });
    expect(array.message).toMatch(/venues\?.*: \$ is not an object/);
    const id = await refused({
      '/tags': json({ tags: [{ id: '4', slug: 'a', name: 'A' }], total: 1, total_pages: 1 }),
    });
    expect(id.message).toMatch(/tags\?.*: \$\.tags\[0\]\.id is not a positive integer id/);
  });

  it('a source that never answers is given up after the time limit', async () => {
    const silent: Answer = () => undefined;
    const err = await refused({ '/categories': silent }, { timeoutMs: 300 });
    expect(err.kind).toBe('fetch');
    expect(err.message).toMatch(/categories\?.*: the URL did not answer in time/);
  });

  it('more pages than the limit', async () => {
    const page = json({ tags: [{ id: 1, slug: 'a', name: 'A' }], total: 900, total_pages: 900 });
    const err = await refused({ '/tags': page }, { maxPages: 3 });
    expect(err.kind).toBe('too_large');
    expect(err.message).toMatch(/tags has 900 pages; at most 3 are read/);
  });

  it('an event the write rules refuse refuses the whole import', async () => {
    const err = await refused({
      '/events': json({
        events: [
          { id: 3, slug: 'ok', title: 'Fine', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' },
          { id: 4, slug: 'bad', title: 'Bad', start_date: 'someday maybe', end_date: '2030-01-01 11:00:00' },
        ],
        total: 2,
        total_pages: 1,
      }),
    });
    expect(err.kind).toBe('bad_items');
    expect(err.message).toMatch(/events 4 \(bad\) refused, nothing imported: start_date/);
  });

  it('imports the real plugin answers recorded by the conformance kit, ids and slugs kept', async () => {
    const src = await startTecSource({
      '/categories': json(recorded.categories),
      '/tags': json(recorded.tags),
      '/venues': json(recorded.venues),
      '/organizers': json(recorded.organizers),
      '/events': json(recorded.events),
    });
    try {
      const r = await t.importer.run(src.url, { auth: `administrator:${PASSWORD}` });
      expect(src.requests.every((line) => line.endsWith(`Basic ${btoa(`administrator:${PASSWORD}`)}`))).toBe(true);
      expect(r.keptIds).toBe(true);
      expect(r.remapped).toBe(0);
      expect(r.counts.events.created).toBe(rows('events').length);
      // Terms only nested in events (a tag deleted after the list was recorded) are imported too.
      const withNested = (list: 'tags' | 'categories') =>
        new Set([...rows(list), ...rows('events').flatMap((e) => e[list] as Row[])].map((t) => t.id)).size;
      expect(r.counts.tags.created).toBe(withNested('tags'));
      expect(r.counts.categories.created).toBe(withNested('categories'));
      for (const e of rows('events')) {
        const res = await t.target.get(`/events/${e.id}`, { as: 'administrator' });
        expect(res.status).toBe(200);
        const got = res.body as Row;
        expect({
          slug: got.slug,
          title: got.title,
          start: got.start_date,
          end: got.end_date,
          tz: got.timezone,
        }).toEqual({ slug: e.slug, title: e.title, start: e.start_date, end: e.end_date, tz: e.timezone });
        const ids = (v: unknown) => (Array.isArray(v) ? v : v ? [v] : []).map((x: Row) => x.id);
        expect(ids(got.venue)).toEqual(ids(e.venue));
        expect(ids(got.organizer)).toEqual(ids(e.organizer));
        expect(ids(got.categories)).toEqual(ids(e.categories));
        expect(ids(got.tags)).toEqual(ids(e.tags));
      }
      const again = await t.importer.run(src.url, {});
      expect(again.counts.events).toMatchObject({ created: 0 });
    } finally {
      await src.close();
    }
  });

  it('sets featured images through the media library; one that fails is reported and its post imported without', async () => {
    const img = await startImageServer(await makeImages());
    const src = await startTecSource(
      lists({
        '/venues': json({
          venues: [
            { id: 70, slug: 'lost-image-hall', venue: 'Lost image hall', image: { url: `${img.url}/gone.jpg` } },
          ],
          total: 1,
          total_pages: 1,
        }),
        '/events': json({
          events: [
            {
              id: 71,
              slug: 'pictured',
              title: 'Pictured',
              start_date: '2030-02-01 10:00:00',
              end_date: '2030-02-01 11:00:00',
              image: { url: `${img.url}/photo.jpg`, width: 1200, height: 800 },
            },
          ],
          total: 1,
          total_pages: 1,
        }),
      }),
    );
    try {
      const r = await t.importer.run(src.url);
      expect(r.images.imported).toBe(1);
      expect(r.images.failed).toEqual([
        { item: 'venues 70 (lost-image-hall)', url: `${img.url}/gone.jpg`, reason: 'image: Invalid parameter.' },
      ]);
      const event = (await t.target.get('/events/by-slug/pictured')).body as { image: { width: number; url: string } };
      expect(event.image.width).toBe(1200);
      expect(event.image.url).toMatch(/^http:\/\/wordpress\.test\/wp-content\/uploads\//);
      expect((await t.target.get('/venues/by-slug/lost-image-hall')).status).toBe(200);
      const hits = img.hits();
      const again = await t.importer.run(src.url);
      expect(again.images.imported).toBe(0);
      expect(again.counts.events).toMatchObject({ created: 0, unchanged: 1 });
      expect(img.hits()).toBe(hits + 1); // only the failing one is tried again
    } finally {
      await src.close();
      await img.close();
    }
  });

  it('pages through a list until total_pages, asking for every status and all dates', async () => {
    const event = (id: number) => ({
      id,
      slug: `paged-${id}`,
      title: `Paged ${id}`,
      start_date: '2031-03-01 10:00:00',
      end_date: '2031-03-01 11:00:00',
    });
    const paged: Answer = (req, url, res) => {
      const page = Number(url.searchParams.get('page'));
      const ids = page === 3 ? [205] : [200 + 2 * page - 1, 200 + 2 * page];
      json({ events: ids.map(event), total: 5, total_pages: 3 })(req, url, res);
    };
    const src = await startTecSource(lists({ '/events': paged }));
    try {
      const r = await t.importer.run(src.url, { auth: 'administrator:x' });
      expect(r.counts.events.created).toBe(5);
      const asked = src.requests.filter((line) => line.startsWith('/wp-json/tribe/events/v1/events?'));
      expect(asked).toHaveLength(3);
      const query = new URLSearchParams(asked[2]!.split(' ')[0]!.split('?')[1]);
      expect(Object.fromEntries(query)).toEqual({
        start_date: '1900-01-01 00:00:00',
        end_date: '2199-12-31 23:59:59',
        status: 'publish,future,draft,pending,private',
        per_page: '50',
        page: '3',
      });
      for (const id of [201, 205]) expect((await t.target.get(`/events/by-slug/paged-${id}`)).status).toBe(200);
    } finally {
      await src.close();
    }
  });
});
