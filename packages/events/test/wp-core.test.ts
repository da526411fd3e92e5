import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, type Service } from './support/harness.ts';
import { UserError, userService } from '../src/user/index.ts';

// Issue 25 item 2: the WordPress core routes clients call around the plugin (the vendor's MCP server reads all three
// at start-up). Expected bodies are WordPress 7.0.4's, as the tec-v1 conformance kit recorded them.

/** The kit's recording of WordPress with The Events Calendar (../shared beside the repository). */
const GOLDEN = JSON.parse(
  readFileSync(new URL('../../../../shared/conformance/tec-v1/golden.json', import.meta.url), 'utf8'),
) as {
  steps: Array<{ id: string; body: Record<string, unknown> }>;
};
const recorded = (id: string) => GOLDEN.steps.find((s) => s.id === id)!.body;

const SHA_ADMIN = '258d8dc916db8cea2cafb6c3cd0cb0246efe061421dbd83ec3a350428cabda4f';
const avatars = (hash: string) => ({
  24: `https://secure.gravatar.com/avatar/${hash}?s=24&d=mm&r=g`,
  48: `https://secure.gravatar.com/avatar/${hash}?s=48&d=mm&r=g`,
  96: `https://secure.gravatar.com/avatar/${hash}?s=96&d=mm&r=g`,
});
const ME = '/wp-json/wp/v2/users/me';
const SETTINGS = '/wp-json/wp/v2/settings';
const site = 'http://wordpress.test';
const BIN = fileURLToPath(new URL('../bin/events.js', import.meta.url));
const run = promisify(execFile);

describe.each(STORES)('WordPress core routes ($name)', (factory) => {
  let svc: Service;
  const owner = { login: 'site.owner', password: 'owner-app-password' };
  const writer = { login: 'casey', password: 'casey-app-password' };
  let ownerId = 0;
  beforeAll(async () => {
    svc = await startService(factory);
    const users = userService(svc.store.db);
    // Upper case and spaces: the Gravatar hash is of the trimmed, lower-cased address.
    ownerId = (
      await users.add(owner.login, 'administrator', {
        appPassword: owner.password,
        email: ' Admin@Example.COM ',
        url: 'https://owner.example.org',
      })
    ).id;
    await users.add(writer.login, 'author', { appPassword: writer.password, email: 'casey@example.com' });
  });
  afterAll(() => svc.close());

  describe('GET /wp-json/', () => {
    it('describes the site and lists every namespace and route of the registry', async () => {
      const res = await svc.get('/wp-json/');
      expect(res.status).toBe(200);
      expect(res.headers.get('allow')).toBe('GET');
      const { routes, _links, ...rest } = res.body;
      expect(rest).toEqual({
        name: 'Events',
        description: '',
        url: site,
        home: site,
        gmt_offset: 0,
        timezone_string: 'UTC',
        page_for_posts: 0,
        page_on_front: 0,
        show_on_front: 'posts',
        namespaces: ['tribe/events/v1', 'tec/v1', 'wp/v2', 'events-service/v1'],
        authentication: { 'application-passwords': { endpoints: {} } },
        site_logo: 0,
        site_icon: 0,
        site_icon_url: '',
      });
      expect(_links).toEqual({ help: [{ href: 'https://developer.wordpress.org/rest-api/' }] });
      expect(routes['/']).toEqual({
        namespace: '',
        methods: ['GET'],
        endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }],
        _links: { self: [{ href: `${site}/wp-json/` }] },
      });
      expect(routes['/wp/v2/users/me'].endpoints[0].args.context).toMatchObject({
        type: 'string',
        enum: ['view', 'embed', 'edit'],
        default: 'view',
        required: false,
      });
      expect(routes['/wp/v2/settings']).toEqual({
        namespace: 'wp/v2',
        methods: ['GET'],
        endpoints: [{ methods: ['GET'], args: [] }],
        _links: { self: [{ href: `${site}/wp-json/wp/v2/settings` }] },
      });
      // Generated from the registry: every route of every namespace index, in the same order.
      for (const ns of ['tribe/events/v1', 'wp/v2']) {
        const index = await svc.get(`/wp-json/${ns}`);
        expect(index.status).toBe(200);
        const own = Object.keys(routes).filter((r) => routes[r].namespace === ns);
        expect(own).toEqual(Object.keys(index.body.routes));
        expect(own[0]).toBe(`/${ns}`);
        for (const r of own) expect(routes[r]).toEqual(index.body.routes[r]);
      }
      expect(Object.keys(routes)[0]).toBe('/');
    });

    it('answers _fields with exactly the named keys, as the MCP server asks (kit step 010)', async () => {
      const res = await svc.get('/wp-json/', {
        query: { _fields: 'name,description,url,home,gmt_offset,timezone_string' },
      });
      expect(res.body).toEqual({
        name: 'Events',
        description: '',
        url: site,
        home: site,
        gmt_offset: 0,
        timezone_string: 'UTC',
      });
      expect(Object.keys(recorded('010'))).toEqual(Object.keys(res.body));
      expect((await svc.get('/wp-json/', { query: { _fields: 'site_logo,_links' } })).body).toEqual({
        site_logo: 0,
        _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
      });
      expect((await svc.get('/?rest_route=/', { query: { _fields: 'namespaces' } })).body).toEqual({
        namespaces: ['tribe/events/v1', 'tec/v1', 'wp/v2', 'events-service/v1'],
      });
    });

    it('refuses other methods with rest_no_route, and OPTIONS describes the route', async () => {
      const post = await svc.request('POST', '/wp-json/', { as: 'administrator', form: { a: 1 } });
      expect(post.status).toBe(404);
      expect(post.body.code).toBe('rest_no_route');
      const options = await svc.request('OPTIONS', '/wp-json/');
      expect(options.status).toBe(200);
      expect(options.body).toMatchObject({ namespace: '', methods: ['GET'] });
      expect((await svc.get('/wp-json/wp/v9')).body.code).toBe('rest_no_route');
    });
  });

  describe('GET /wp/v2/users/me', () => {
    it('answers the view context with the Gravatar of the e-mail and WordPress links', async () => {
      const res = await svc.get(ME, { as: owner });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        id: ownerId,
        name: 'site.owner',
        url: 'https://owner.example.org',
        description: '',
        link: `${site}/author/site-owner/`,
        slug: 'site-owner',
        avatar_urls: avatars(SHA_ADMIN),
        meta: [],
        _links: {
          self: [
            {
              href: `${site}/wp-json/wp/v2/users/${ownerId}`,
              targetHints: { allow: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] },
            },
          ],
          collection: [{ href: `${site}/wp-json/wp/v2/users` }],
        },
      });
      // The same keys as WordPress's answer for the kit's admin (step 001).
      expect(Object.keys(res.body)).toEqual(Object.keys(recorded('001')));
    });

    it('answers context=edit with the account fields and the capabilities WordPress gives the role', async () => {
      const admin = (await svc.get(ME, { as: owner, query: { context: 'edit' } })).body;
      const author = (await svc.get(ME, { as: writer, query: { context: 'edit' } })).body;
      for (const [mine, step] of [
        [admin, '003'],
        [author, '004'],
      ] as const) {
        const theirs = recorded(step);
        expect(Object.keys(mine)).toEqual(Object.keys(theirs));
        expect(mine.capabilities).toEqual(theirs.capabilities);
        expect(mine.extra_capabilities).toEqual(theirs.extra_capabilities);
        expect(mine.roles).toEqual(theirs.roles);
        expect(mine.meta).toEqual({ persisted_preferences: [] });
        expect(mine.registered_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
      }
      expect(admin).toMatchObject({
        username: 'site.owner',
        email: 'Admin@Example.COM',
        first_name: '',
        last_name: '',
        locale: 'en_US',
        nickname: 'site.owner',
      });
      expect(author.avatar_urls).toEqual(recorded('004').avatar_urls);
      expect(author._links.self[0].targetHints.allow).toEqual(['GET', 'POST', 'PUT', 'PATCH']);
    });

    it('gives the other roles WordPress capabilities with The Events Calendar ones derived from them', async () => {
      const caps = async (as: 'editor' | 'contributor' | 'subscriber') =>
        Object.keys((await svc.get(ME, { as, query: { context: 'edit' } })).body.capabilities);
      const editor = await caps('editor');
      expect(editor).toContain('edit_others_tribe_events');
      expect(editor).toContain('level_7');
      expect(editor).not.toContain('manage_options');
      expect(await caps('contributor')).toEqual([
        'edit_posts',
        'read',
        'level_1',
        'level_0',
        'delete_posts',
        'edit_tribe_events',
        'delete_tribe_events',
        'edit_tribe_venues',
        'delete_tribe_venues',
        'edit_tribe_organizers',
        'delete_tribe_organizers',
        'edit_aggregator-records',
        'delete_aggregator-records',
        'contributor',
      ]);
      expect(await caps('subscriber')).toEqual(['read', 'level_0', 'subscriber']);
    });

    it('has no meta in the embed context and honours _fields without links', async () => {
      const embed = (await svc.get(ME, { as: writer, query: { context: 'embed' } })).body;
      expect(embed).not.toHaveProperty('meta');
      expect(embed.slug).toBe('casey');
      expect((await svc.get(ME, { as: writer, query: { _fields: 'id,name' } })).body).toEqual({
        id: expect.any(Number),
        name: 'casey',
      });
      expect((await svc.get(ME, { as: writer, query: { _fields: 'id,_links.collection' } })).body._links).toBeDefined();
    });

    it('answers anonymous callers 401 rest_not_logged_in and wrong passwords 401 incorrect_password', async () => {
      const anon = await svc.get(ME);
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual({
        code: 'rest_not_logged_in',
        message: 'You are not currently logged in.',
        data: { status: 401 },
      });
      expect(anon.body).toEqual(recorded('005'));
      const wrong = await svc.get(ME, { as: { login: owner.login, password: 'WrongPass000000000000000' } });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toEqual(recorded('006'));
    });

    it('refuses an unknown context with 400 rest_invalid_param and a rest_not_in_enum detail', async () => {
      const res = await svc.get(ME, { as: owner, query: { context: 'full' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): context',
        data: {
          status: 400,
          params: { context: 'context is not one of view, embed, and edit.' },
          details: {
            context: { code: 'rest_not_in_enum', message: 'context is not one of view, embed, and edit.', data: null },
          },
        },
      });
      expect((await svc.get(ME, { query: { context: 'full' } })).status).toBe(400);
    });
  });

  describe('GET /wp/v2/settings', () => {
    it('gives administrators the settings from our configuration, with the shape WordPress records', async () => {
      const res = await svc.get(SETTINGS, { as: 'administrator' });
      expect(res.status).toBe(200);
      // The first administrator (harness user `administrator`) has no e-mail.
      expect(res.body).toEqual({ ...recorded('008'), title: 'Events', url: site, email: '' });
      expect(Object.keys(res.body)).toEqual(Object.keys(recorded('008')));
    });

    it('refuses other roles with 403 and anonymous callers with 401 rest_forbidden', async () => {
      for (const as of ['editor', 'author', 'subscriber'] as const) {
        const res = await svc.get(SETTINGS, { as });
        expect(res.status, as).toBe(403);
        expect(res.body).toEqual(recorded('009'));
      }
      const anon = await svc.get(SETTINGS);
      expect(anon.status).toBe(401);
      expect(anon.body).toEqual({
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 401 },
      });
      expect((await svc.request('POST', SETTINGS, { as: 'administrator', json: { title: 'x' } })).body.code).toBe(
        'rest_no_route',
      );
    });
  });

  it('takes the e-mail and website from `events user add`, and refuses malformed ones with exit status 2', async () => {
    await run(process.execPath, [
      BIN,
      'user',
      'add',
      'jo',
      '--role',
      'editor',
      '--app-password',
      'jo-app-password',
      '--email',
      'jo@example.com',
      '--url',
      'https://jo.example.org/',
      '--db',
      svc.dbUrl,
    ]);
    const me = (await svc.get(ME, { as: { login: 'jo', password: 'jo-app-password' }, query: { context: 'edit' } }))
      .body;
    expect(me).toMatchObject({
      username: 'jo',
      email: 'jo@example.com',
      url: 'https://jo.example.org/',
      roles: ['editor'],
    });
    const bad = await run(process.execPath, [
      BIN,
      'user',
      'add',
      'kim',
      '--role',
      'author',
      '--email',
      'kim at example',
      '--db',
      svc.dbUrl,
    ]).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--email must be an e-mail address');
  });

  it('refuses a malformed e-mail or website when a user is added', async () => {
    const users = userService(svc.store.db);
    await expect(users.add('bad.mail', 'author', { email: 'not an address' })).rejects.toThrow(UserError);
    await expect(users.add('bad.url', 'author', { url: 'javascript:alert(1)' })).rejects.toThrow(
      /--url must be an absolute http\(s\) URL/,
    );
    expect((await users.list()).map((u) => u.login)).not.toContain('bad.mail');
  });
});

describe.each(STORES)('WordPress core routes with a configured site ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory, {
      timezone: 'Europe/Paris',
      env: {
        EVENTS_SITE_NAME: 'Jazz Club',
        EVENTS_SITE_DESCRIPTION: 'Live every night',
        EVENTS_ADMIN_EMAIL: 'ops@example.org',
      },
    });
  });
  afterAll(() => svc.close());

  it('reports name, tagline, zone and e-mail from the configuration in the root and the settings', async () => {
    // DEFAULT_NOW is in January: Paris is at UTC+1.
    const root = (await svc.get('/wp-json/', { query: { _fields: 'name,description,gmt_offset,timezone_string' } }))
      .body;
    expect(root).toEqual({
      name: 'Jazz Club',
      description: 'Live every night',
      gmt_offset: 1,
      timezone_string: 'Europe/Paris',
    });
    svc.clock.now = Date.UTC(2018, 6, 1);
    expect((await svc.get('/wp-json/', { query: { _fields: 'gmt_offset' } })).body).toEqual({ gmt_offset: 2 });
    const settings = (await svc.get(SETTINGS, { as: 'administrator' })).body;
    expect(settings).toMatchObject({
      title: 'Jazz Club',
      description: 'Live every night',
      timezone: 'Europe/Paris',
      email: 'ops@example.org',
    });
  });
});
