import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, STORES, countWritten, createEvent, startService, type Service } from './support/harness.ts';
import { tecImporter, tecTarget } from './support/tec-import.ts';

// Issue 30 item 3: `events import tec URL`. The source is a second instance of this service (it speaks the plugin's
// API), seeded through its REST API; the target runs on each store. Into an empty target ids and slugs are kept.

const WIDE = { start_date: '1900-01-01', end_date: '2199-12-31', per_page: 50, status: 'publish,draft,private' };
const AUTH = `administrator:${PASSWORD}`;
// Fields that say when or by whom a copy was written, not what it holds.
const VOLATILE = new Set(['modified', 'modified_utc', 'author', 'rest_url', 'global_id', 'global_id_lineage']);

const strip = (body: unknown): unknown => {
  if (Array.isArray(body)) return body.map(strip);
  if (body === null || typeof body !== 'object') return body;
  return Object.fromEntries(
    Object.entries(body)
      .filter(([k]) => !VOLATILE.has(k))
      .map(([k, v]) => [k, strip(v)]),
  );
};

async function seed(src: Service) {
  const post = async (path: string, form: Record<string, unknown>) => {
    const res = await src.post(path, form);
    if (res.status !== 201 && res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    return res.body as { id: number };
  };
  const arts = await post('/categories', { name: 'Arts', description: 'All arts' });
  const theatre = await post('/categories', { name: 'Theatre', parent: arts.id });
  const kids = await post('/tags', { name: 'Kids' });
  await post('/tags', { name: 'Unused tag' });
  // An event with a lower id than its venue: linked after the venue is written.
  const early = await createEvent(src, { title: 'Early bird', categories: [theatre.id], tags: [kids.id] });
  const hall = await post('/venues', { venue: 'Town Hall', city: 'Ghent', country: 'Belgium', address: 'Markt 1' });
  await post('/venues', {
    venue: 'Map-less park',
    show_map: 'false',
    show_map_link: '0',
    geo_lat: 51.05,
    geo_lng: 3.72,
  });
  const guild = await post('/organizers', { organizer: 'Arts Guild', email: 'guild@example.com', phone: '123' });
  await src.post(`/events/${early.id}`, { venue: hall.id, organizer: [guild.id] });
  await createEvent(src, {
    title: 'Night show',
    description: 'An evening <b>show</b>',
    start_date: '2031-05-01 20:00:00',
    end_date: '2031-05-01 23:00:00',
    venue: hall.id,
    cost: '15',
    featured: true,
    categories: [arts.id],
  });
  await createEvent(src, {
    title: 'Draft plan',
    status: 'draft',
    start_date: '2019-03-01 09:00:00',
    end_date: '2019-03-01 10:00:00',
  });
  await createEvent(src, { title: 'All day fair', all_day: true, start_date: '2020-06-01', end_date: '2020-06-02' });
}

const listIds = async (svc: Service, path: string, query: Record<string, string | number> = {}) => {
  const res = await svc.get(path, { query: { per_page: 50, ...query }, as: 'administrator' });
  const key = path.slice(1);
  return ((res.body as Record<string, Array<{ id: number }>>)[key] ?? []).map((x) => x.id).sort((a, b) => a - b);
};

let source: Service;
beforeAll(async () => {
  source = await startService(STORES[0]!);
  await seed(source);
});
afterAll(async () => {
  await source.close();
});

describe.each(STORES)('import from a site running the plugin into $name', (factory) => {
  const t = tecTarget(factory);

  it('dry run counts what would be created and writes nothing', async () => {
    const before = await countWritten(t.target);
    const r = await t.importer.run(source.base, { auth: AUTH, dryRun: true });
    expect(r.counts.events.created).toBe(4);
    expect(r.counts.venues.created).toBe(2);
    expect(await countWritten(t.target)).toEqual(before);
  });

  it('keeps ids and slugs into an empty store: the target answers as the source does', async () => {
    const pages: string[] = [];
    const r = await t.importer.run(`${source.base}/wp-json/tribe/events/v1/`, {
      auth: AUTH,
      onPage: (list, page, pages_) => pages.push(`${list} ${page}/${pages_}`),
    });
    expect(pages).toEqual(['categories 1/1', 'tags 1/1', 'venues 1/1', 'organizers 1/1', 'events 1/1']);
    expect(r.keptIds).toBe(true);
    expect(r.remapped).toBe(0);
    expect(r.counts).toEqual({
      categories: { created: 2, updated: 0, unchanged: 0 },
      tags: { created: 2, updated: 0, unchanged: 0 },
      venues: { created: 2, updated: 0, unchanged: 0 },
      organizers: { created: 1, updated: 0, unchanged: 0 },
      events: { created: 4, updated: 0, unchanged: 0 },
    });
    const eventIds = await listIds(source, '/events', WIDE);
    expect(eventIds).toHaveLength(4);
    expect(await listIds(t.target, '/events', WIDE)).toEqual(eventIds);
    for (const id of eventIds) {
      const [a, b] = await Promise.all([source, t.target].map((s) => s.get(`/events/${id}`, { as: 'administrator' })));
      expect(b!.status).toBe(200);
      expect(strip(b!.body)).toEqual(strip(a!.body));
    }
    for (const path of ['/venues', '/organizers', '/categories', '/tags']) {
      const query: Record<string, number> = path === '/categories' || path === '/tags' ? { hide_empty: 0 } : {};
      const ids = await listIds(source, path, query);
      expect(await listIds(t.target, path, query)).toEqual(ids);
      for (const id of ids) {
        const [a, b] = await Promise.all(
          [source, t.target].map((s) => s.get(`${path}/${id}`, { as: 'administrator' })),
        );
        expect(strip(b!.body)).toEqual(strip(a!.body));
      }
    }
  });

  it('importing again changes nothing and duplicates nothing', async () => {
    const before = await countWritten(t.target);
    const r = await t.importer.run(source.base, { auth: AUTH });
    expect(r.keptIds).toBe(false);
    for (const kind of ['categories', 'tags', 'venues', 'organizers', 'events'] as const)
      expect(r.counts[kind]).toMatchObject({ created: 0, updated: 0 });
    expect(r.counts.events.unchanged).toBe(4);
    expect(await countWritten(t.target)).toEqual(before);
  });

  it('without credentials reads published events only', async () => {
    const other = await startService(factory);
    const imp = await tecImporter(other);
    try {
      const r = await imp.run(source.base, {});
      expect(r.counts.events.created).toBe(3);
    } finally {
      await imp.close();
      await other.close();
    }
  });

  it('a changed source event is updated on the next import, the rest left alone', async () => {
    const title = `Night show (${factory.name})`;
    const night = (await source.get('/events/by-slug/night-show')).body as { id: number };
    expect((await source.post(`/events/${night.id}`, { title })).status).toBe(200);
    const r = await t.importer.run(source.base, { auth: AUTH });
    expect(r.counts.events).toEqual({ created: 0, updated: 1, unchanged: 3 });
    // The import wrote through another connection: on PostgreSQL the service's cache hears of it by NOTIFY, a moment later.
    await expect
      .poll(async () => ((await t.target.get(`/events/${night.id}`)).body as { title: string }).title, {
        timeout: 3000,
      })
      .toBe(title);
  });

  it('into a store holding other items, ids are mapped and references follow', async () => {
    const other = await startService(factory);
    const imp = await tecImporter(other);
    try {
      await createEvent(other, { title: 'Already here', venue: { venue: 'Local venue' } });
      const r = await imp.run(source.base, { auth: AUTH });
      expect(r.keptIds).toBe(false);
      expect(r.remapped).toBeGreaterThan(0);
      expect(r.counts.events.created).toBe(4);
      const slugs = (v: unknown) => (Array.isArray(v) ? v : v ? [v] : []).map((x: { slug: string }) => x.slug);
      for (const slug of ['early-bird', 'night-show', 'all-day-fair']) {
        const [a, b] = (await Promise.all([source, other].map((s) => s.get(`/events/by-slug/${slug}`)))).map(
          (res) => res.body as Record<string, unknown>,
        );
        expect(b!.id).not.toBe(a!.id);
        for (const key of ['venue', 'organizer', 'categories', 'tags']) expect(slugs(b![key])).toEqual(slugs(a![key]));
      }
    } finally {
      await imp.close();
      await other.close();
    }
  });
});
