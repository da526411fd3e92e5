import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userService } from '../src/user/index.ts';
import { PASSWORD, STORES, createEvent, startService, type Service } from './support/harness.ts';
import { tecTarget, type TecImporter } from './support/tec-import.ts';
import { json, startTecSource } from './support/tec-source-server.ts';

// Issue 30 item 3 and 4: `events import tec` brings the source's authors. It reads `/wp/v2/users` (edit context when
// the credentials may list users, else the public view), matches local users by an earlier import's link, by login
// or by slug, creates the others without an application password, and writes each item under its mapped author.
// The source is a second instance of this service.

const AUTH = `administrator:${PASSWORD}`;
const casey = { login: 'casey', password: 'casey-app-password' };

let source: Service;
const src = { casey: 0, talk: 0, hall: 0, fair: 0, draft: 0 };
beforeAll(async () => {
  source = await startService(STORES[0]!);
  const users = userService(source.store.db);
  src.casey = (
    await users.add(casey.login, 'author', {
      appPassword: casey.password,
      email: 'casey@example.com',
      url: 'https://casey.example.org',
    })
  ).id;
  const talk = await createEvent(source, { title: 'Casey talk', venue: { venue: 'Casey hall' } }, casey);
  src.talk = talk.id;
  src.hall = talk.venue.id;
  src.fair = (await createEvent(source, { title: 'Editor fair' }, 'editor')).id;
  src.draft = (await createEvent(source, { title: 'Draft talk' }, 'contributor')).id;
});
afterAll(() => source.close());

/** The stored author of a post of the target (its store: the service's cache may lag an import's writes). */
const authorOf = async (imp: TecImporter, id: number) =>
  (await imp.store.db.selectFrom('posts').select('author').where('id', '=', id).executeTakeFirstOrThrow()).author;
const userNamed = (imp: TecImporter, login: string) =>
  imp.store.db.selectFrom('users').selectAll().where('login', '=', login).executeTakeFirst();

describe.each(STORES)('authors imported into an empty $name store (edit context)', (factory) => {
  const t = tecTarget(factory);

  it('creates the missing user under its source id, matches the others by login, and maps every author', async () => {
    const r = await t.importer.run(source.base, { auth: AUTH });
    expect(r.users).toEqual({ context: 'edit', created: 1, matched: 5, unmapped: 0 });
    const local = await userNamed(t.importer, 'casey');
    expect(local).toMatchObject({
      id: src.casey,
      role: 'author',
      email: 'casey@example.com',
      url: 'https://casey.example.org',
      display_name: 'casey',
    });
    expect(await authorOf(t.importer, src.talk)).toBe(src.casey);
    expect(await authorOf(t.importer, src.hall)).toBe(src.casey);
    expect(await authorOf(t.importer, src.fair)).toBe(t.target.userIds.editor);
    expect(await authorOf(t.importer, src.draft)).toBe(t.target.userIds.contributor);
    // Served as the source serves it, and listed as a public author.
    const event = await t.target.get(`/events/${src.talk}`);
    expect(event.body.author).toBe(String(src.casey));
    const listed = await t.target.get('/wp-json/wp/v2/users', { query: { slug: 'casey' } });
    expect(listed.body.map((u: { id: number }) => u.id)).toEqual([src.casey]);
  });

  it('gives the new user no application password: it cannot sign in until given one', async () => {
    const passwords = await t.importer.store.db
      .selectFrom('app_passwords')
      .select('id')
      .where('user_id', '=', src.casey)
      .execute();
    expect(passwords).toEqual([]);
    const res = await t.target.get('/wp-json/wp/v2/users/me', { as: casey });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('incorrect_password');
  });

  it('a re-import matches by source id: a local login renamed since keeps its posts, nothing is written', async () => {
    await sql`update users set login = 'casey.here' where id = ${src.casey}`.execute(t.importer.store.db);
    const r = await t.importer.run(source.base, { auth: AUTH });
    expect(r.users).toEqual({ context: 'edit', created: 0, matched: 6, unmapped: 0 });
    expect(r.counts.events).toEqual({ created: 0, updated: 0, unchanged: 3 });
    expect(await userNamed(t.importer, 'casey')).toBeUndefined();
  });

  it('an author changed on the source moves the item here', async () => {
    const moved = await source.post(`/events/${src.fair}`, { author: src.casey });
    expect(moved.status, moved.text).toBe(200);
    const r = await t.importer.run(source.base, { auth: AUTH });
    expect(r.counts.events).toEqual({ created: 0, updated: 1, unchanged: 2 });
    expect(await authorOf(t.importer, src.fair)).toBe(src.casey);
    await source.post(`/events/${src.fair}`, { author: source.userIds.editor });
  });
});

describe.each(STORES)('authors imported anonymously into a used $name store (view context)', (factory) => {
  const t = tecTarget(factory);

  it('reads only the public authors, maps ids, and creates the others as subscribers without e-mail', async () => {
    // A local user and a post first: the source's ids are not kept.
    const zed = await userService(t.importer.store.db).add('zed', 'editor');
    await createEvent(t.target, { title: 'Ours' });
    const r = await t.importer.run(source.base);
    // Administrator has no published post on the source; editor and casey have (the draft is not read anonymously).
    expect(r.users).toEqual({ context: 'view', created: 1, matched: 1, unmapped: 0 });
    const local = await userNamed(t.importer, 'casey');
    expect(local).toMatchObject({ role: 'subscriber', email: '', url: 'https://casey.example.org' });
    expect(local!.id).toBeGreaterThan(zed.id);
    const talk = await t.importer.store.db
      .selectFrom('posts')
      .select(['id', 'author'])
      .where('title', '=', 'Casey talk')
      .executeTakeFirstOrThrow();
    expect(talk.author).toBe(local!.id);
    const fair = await t.importer.store.db
      .selectFrom('posts')
      .select('author')
      .where('title', '=', 'Editor fair')
      .executeTakeFirstOrThrow();
    expect(fair.author).toBe(t.target.userIds.editor);
  });
});

describe.each(STORES)('sources whose users cannot be read or named ($name)', (factory) => {
  const t = tecTarget(factory);
  const EMPTY = { total: 0, total_pages: 0 };
  const event = (id: number, author: string) => ({
    id,
    slug: `e${id}`,
    title: `E${id}`,
    author,
    start_date: '2030-01-01 10:00:00',
    end_date: '2030-01-01 11:00:00',
  });
  const lists = {
    '/categories': json({ categories: [], ...EMPTY }),
    '/tags': json({ tags: [], ...EMPTY }),
    '/venues': json({ venues: [], ...EMPTY }),
    '/organizers': json({ organizers: [], ...EMPTY }),
    '/events': json({ events: [event(40, '7'), event(41, '8')], total: 2, total_pages: 1 }),
  };

  it('a site hiding /wp/v2/users imports its items under the importing user, and says why', async () => {
    const site = await startTecSource(lists);
    try {
      const r = await t.importer.run(site.url);
      expect(r.users).toMatchObject({ context: 'none', created: 0, matched: 0, unmapped: 2 });
      expect(r.users.reason).toMatch(/wp\/v2\/users\?context=view.*404/);
      expect(await authorOf(t.importer, 40)).toBe(t.target.userIds.administrator);
    } finally {
      await site.close();
    }
  });

  it('a login with spaces (WordPress allows them) becomes the slug; an author not listed keeps the importer', async () => {
    const users = [{ id: 7, username: 'Jo Smith', slug: 'jo-smith', name: 'Jo Smith', roles: ['editor'] }];
    const site = await startTecSource({ ...lists, '/wp-json/wp/v2/users': json(users) });
    try {
      const r = await t.importer.run(site.url, { auth: 'admin:some-password' });
      expect(r.users).toEqual({ context: 'edit', created: 1, matched: 0, unmapped: 1 });
      expect(await userNamed(t.importer, 'jo-smith')).toMatchObject({ display_name: 'Jo Smith', role: 'editor' });
      expect(await authorOf(t.importer, 41)).toBe(t.target.userIds.administrator);
    } finally {
      await site.close();
    }
  });
});
