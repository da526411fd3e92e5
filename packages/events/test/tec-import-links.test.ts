import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/db/index.ts';
import { PASSWORD, STORES, createEvent, startService, type Service } from './support/harness.ts';
import { tecImporter, tecTarget, type TecImporter } from './support/tec-import.ts';

// Issue 30 item 3: `events import tec` keeps a link table (migration 018), source item → local item, so a re-import
// matches by source id: a slug renamed on either side updates the same item, an unrelated local item of the same
// slug is left alone, and an item deleted here is created again. The source is a second instance of this service.

const AUTH = `administrator:${PASSWORD}`;

let source: Service;
const src = { event: 0, venue: 0, arts: 0 };
beforeAll(async () => {
  source = await startService(STORES[0]!);
  const arts = await source.post('/categories', { name: 'Arts' });
  src.arts = (arts.body as { id: number }).id;
  const gala = await createEvent(source, { title: 'Gala', venue: { venue: 'Hall' }, categories: [src.arts] });
  src.event = gala.id;
  src.venue = gala.venue.id;
  await createEvent(source, { title: 'Picnic' });
});
afterAll(async () => {
  await source.close();
});

/** The target's stored post or term, read from its store (the service's cache may lag an import's writes). */
const postOf = (imp: TecImporter, id: number) =>
  imp.store.db.selectFrom('posts').select(['id', 'slug', 'title', 'status']).where('id', '=', id).executeTakeFirst();
const eventsNamed = (imp: TecImporter, title: string) =>
  imp.store.db
    .selectFrom('posts')
    .select(['id', 'slug', 'status'])
    .where('type', '=', 'tribe_events')
    .where('title', '=', title)
    .orderBy('id')
    .execute();
const linksOf = (imp: TecImporter) =>
  imp.store.db.selectFrom('tec_links').selectAll().orderBy('kind').orderBy('source_id').execute();
const edit = async (svc: Service, path: string, form: Record<string, unknown>) => {
  const res = await svc.post(path, form);
  expect(res.status, res.text).toBe(200);
};

describe.each(STORES)('re-imports matched by source id on $name', (factory) => {
  const t = tecTarget(factory);
  const api = () => `${source.base.replace('http://', '')}/wp-json/tribe/events/v1`;

  it('links every item imported, under the API root without its scheme', async () => {
    const r = await t.importer.run(source.base, { auth: AUTH });
    expect(r.keptIds).toBe(true);
    const links = await linksOf(t.importer);
    expect(links.map((l) => [l.kind, l.source_id === l.local_id, l.source])).toEqual([
      ['categories', true, api()],
      ['events', true, api()],
      ['events', true, api()],
      // The source's five users, matched by login to this service's five (the same ids).
      ...Array.from({ length: 5 }, () => ['users', true, api()]),
      ['venues', true, api()],
    ]);
    // A dry run writes no link.
    await sql`delete from tec_links`.execute(t.importer.store.db);
    await t.importer.run(source.base, { auth: AUTH, dryRun: true });
    expect(await linksOf(t.importer)).toEqual([]);
    await t.importer.run(source.base, { auth: AUTH });
    expect(await linksOf(t.importer)).toEqual(links);
  });

  it('a slug renamed on the source updates the same items, and the local slugs follow', async () => {
    await edit(source, `/events/${src.event}`, { slug: `gala-${factory.name}` });
    await edit(source, `/categories/${src.arts}`, { slug: `arts-${factory.name}` });
    const r = await t.importer.run(source.base, { auth: AUTH });
    expect(r.counts.events).toEqual({ created: 0, updated: 1, unchanged: 1 });
    expect(r.counts.categories).toEqual({ created: 0, updated: 1, unchanged: 0 });
    expect(await postOf(t.importer, src.event)).toMatchObject({ slug: `gala-${factory.name}` });
    const term = await t.importer.store.db.selectFrom('terms').select('slug').where('id', '=', src.arts).execute();
    expect(term).toEqual([{ slug: `arts-${factory.name}` }]);
    const live = await t.importer.store.db
      .selectFrom('posts')
      .select('id')
      .where('type', '=', 'tribe_events')
      .where('status', '!=', 'trash')
      .execute();
    expect(live).toHaveLength(2);
  });

  it('an unrelated local item holding the source slug is left alone; the linked item keeps its own slug', async () => {
    await edit(t.target, `/events/${src.event}`, { slug: 'our-gala' });
    const mine = await createEvent(t.target, { title: 'Our own', slug: `gala-${factory.name}` });
    expect(mine.slug).toBe(`gala-${factory.name}`);
    await edit(source, `/events/${src.event}`, { title: `Gala night ${factory.name}` });
    const r = await t.importer.run(source.base, { auth: AUTH });
    expect(r.counts.events).toEqual({ created: 0, updated: 1, unchanged: 1 });
    expect(await postOf(t.importer, src.event)).toMatchObject({
      slug: 'our-gala',
      title: `Gala night ${factory.name}`,
    });
    expect(await postOf(t.importer, mine.id)).toMatchObject({ slug: `gala-${factory.name}`, title: 'Our own' });
    const again = await t.importer.run(source.base, { auth: AUTH });
    expect(again.counts.events).toEqual({ created: 0, updated: 0, unchanged: 2 });
  });

  it('an item deleted here is created again on the next import, and the link moves to it', async () => {
    expect((await t.target.request('DELETE', `/events/${src.event}`, { as: 'administrator' })).status).toBe(200);
    const r = await t.importer.run(source.base, { auth: AUTH });
    expect(r.deletedHere).toBe(1);
    expect(r.counts.events).toEqual({ created: 1, updated: 0, unchanged: 1 });
    const copies = await eventsNamed(t.importer, `Gala night ${factory.name}`);
    expect(copies.map((c) => c.status)).toEqual(['trash', 'publish']);
    const recreated = copies[1]!;
    // The source's slug is the unrelated event's: the new copy gets the next free one, and that event stays as it is.
    expect(recreated.slug).toBe(`gala-${factory.name}-2`);
    expect((await eventsNamed(t.importer, 'Our own')).map((e) => e.slug)).toEqual([`gala-${factory.name}`]);
    const link = (await linksOf(t.importer)).find((l) => l.kind === 'events' && l.source_id === src.event);
    expect(link?.local_id).toBe(recreated.id);
    // Linked to its venue and category as the first copy was.
    const event = await t.importer.store.db
      .selectFrom('events')
      .select('venue_id')
      .where('post_id', '=', recreated.id)
      .executeTakeFirst();
    expect(event?.venue_id).toBe(src.venue);
    const again = await t.importer.run(source.base, { auth: AUTH });
    expect(again.deletedHere).toBe(0);
    expect(again.counts.events).toEqual({ created: 0, updated: 0, unchanged: 2 });
  });

  it('another source never takes a linked item by its slug, only one no import linked', async () => {
    // The same site under another host name is another source (only the scheme is left out of the key).
    const other = source.base.replace('127.0.0.1', 'localhost');
    const before = await eventsNamed(t.importer, 'Picnic');
    const r = await t.importer.run(other, { auth: AUTH });
    // Picnic is created beside the first source's; this source's Gala, never linked, takes by the slug rule the one
    // local event holding its slug that no import linked (the event made here above).
    expect(r.counts.events).toEqual({ created: 1, updated: 1, unchanged: 0 });
    expect(await eventsNamed(t.importer, 'Our own')).toEqual([]);
    expect(r.counts.venues.created).toBe(1);
    // Categories are one vocabulary: the term of the first source's import is shared, not duplicated.
    expect(r.counts.categories).toMatchObject({ created: 0 });
    const picnics = await eventsNamed(t.importer, 'Picnic');
    expect(picnics.slice(0, 1)).toEqual(before);
    expect(picnics.map((p) => p.slug)).toEqual(['picnic', 'picnic-2']);
    const sources = new Set((await linksOf(t.importer)).map((l) => l.source));
    expect(sources.size).toBe(2);
  });
});

describe.each(STORES)('a $name store upgraded to the link table', (factory) => {
  const t = tecTarget(factory);

  it('matches by slug once, links what it matched, then follows renamed slugs', async () => {
    const first = await t.importer.run(source.base, { auth: AUTH });
    expect(first.counts.events.created).toBe(2);
    // The store as an import before migration 018 left it: the same rows, no link table, the migration not run.
    await t.importer.close();
    const old = await openStore(t.target.dbUrl);
    await sql`drop table tec_links`.execute(old.db);
    await sql`delete from kysely_migration where name = '018-tec-links'`.execute(old.db);
    await old.close();
    const importer = await tecImporter(t.target);
    Object.assign(t, { importer });
    const tables = await sql<{ n: number | string }>`select count(*) as n from tec_links`.execute(importer.store.db);
    expect(Number(tables.rows[0]!.n)).toBe(0);
    const r = await importer.run(source.base, { auth: AUTH });
    expect(r.counts.events).toEqual({ created: 0, updated: 0, unchanged: 2 });
    // The four items and the source's five users.
    expect((await linksOf(importer)).length).toBe(9);
    const event = await postOf(importer, src.event);
    await edit(source, `/events/${src.event}`, { slug: `renamed-${factory.name}` });
    const renamed = await importer.run(source.base, { auth: AUTH });
    expect(renamed.counts.events).toEqual({ created: 0, updated: 1, unchanged: 1 });
    expect(await postOf(importer, src.event)).toMatchObject({ id: event!.id, slug: `renamed-${factory.name}` });
  });

  it('a link naming a post of another kind (an edited table) counts as deleted: the event is created again', async () => {
    await t.importer.store.db
      .updateTable('tec_links')
      .set({ local_id: src.venue })
      .where('kind', '=', 'events')
      .where('source_id', '=', src.event)
      .execute();
    const r = await t.importer.run(source.base, { auth: AUTH });
    expect(r.deletedHere).toBe(1);
    expect(r.counts.events).toEqual({ created: 1, updated: 0, unchanged: 1 });
    expect(r.counts.venues).toEqual({ created: 0, updated: 0, unchanged: 1 });
    const venue = await postOf(t.importer, src.venue);
    expect(venue).toMatchObject({ title: 'Hall', status: 'publish' });
  });
});
