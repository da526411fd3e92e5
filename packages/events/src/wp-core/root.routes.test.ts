import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/index.ts';
import { createDispatcher } from '../http/dispatch.ts';
import { compileRoutes, endpoint, type CompiledRoute } from '../http/route.ts';
import { createSite } from '../post/index.ts';
import { describeRoute, namespaceIndexRoute } from '../discovery/index.ts';
import { apiRootRoutes, wpV2Routes, type WpCoreDeps } from './index.ts';

const site = createSite(parseConfig({ siteUrl: 'http://calendar.test' }));

// The API root lists whatever the registry holds: a namespace mounted beside the others (as `tec/v1` will be)
// appears in `namespaces` and `routes` with nothing else changed.
describe('the API root over a route registry', () => {
  let compiled: CompiledRoute[] = [];
  const deps: WpCoreDeps = {
    site,
    tagline: '',
    adminEmail: async () => '',
    findUser: async () => undefined,
    listUsers: async () => [],
    withPublishedPosts: async () => new Set(),
    routes: () => compiled,
  };
  const listed = endpoint({ methods: ['GET'], args: { schema: Type.Object({}) }, handler: () => ({ body: [] }) });
  compiled = [
    ...compileRoutes('', apiRootRoutes(deps)),
    ...compileRoutes('tribe/events/v1', [
      namespaceIndexRoute(site, 'tribe/events/v1', () => compiled),
      { pattern: '/events', endpoints: [listed] },
    ]),
    ...compileRoutes('tec/v1', [
      namespaceIndexRoute(site, 'tec/v1', () => compiled),
      { pattern: '/events/(?P<id>\\d+)', endpoints: [listed] },
    ]),
    ...compileRoutes('wp/v2', wpV2Routes(deps)),
  ];
  const dispatch = createDispatcher(compiled, (route, now) => describeRoute(site, route, now));
  const get = (route: string, query: Record<string, unknown> = {}) =>
    dispatch({
      method: 'GET',
      route,
      query,
      contentType: '',
      rawBody: '',
      overrideHeader: undefined,
      caller: null,
      now: Date.UTC(2026, 0, 1),
    });

  it('lists every namespace and route in registration order', async () => {
    const { reply } = await get('/');
    const body = reply.body as { namespaces: string[]; routes: Record<string, { namespace: string }> };
    expect(body.namespaces).toEqual(['tribe/events/v1', 'tec/v1', 'wp/v2']);
    expect(Object.keys(body.routes)).toEqual([
      '/',
      '/tribe/events/v1',
      '/tribe/events/v1/events',
      '/tec/v1',
      '/tec/v1/events/(?P<id>\\d+)',
      '/wp/v2',
      '/wp/v2/users',
      '/wp/v2/users/(?P<id>[\\d]+)',
      '/wp/v2/users/me',
      '/wp/v2/settings',
    ]);
    expect(body.routes['/tec/v1/events/(?P<id>\\d+)']).toEqual({
      namespace: 'tec/v1',
      methods: ['GET'],
      endpoints: [{ methods: ['GET'], args: [] }],
    });
    expect(reply.links).toEqual({ help: [{ href: 'https://developer.wordpress.org/rest-api/' }] });
  });

  it('gives each namespace an index of its own routes only', async () => {
    const { reply } = await get('/tec/v1');
    expect(Object.keys((reply.body as { routes: object }).routes)).toEqual(['/tec/v1', '/tec/v1/events/(?P<id>\\d+)']);
    expect(reply.links).toEqual({ up: [{ href: 'http://calendar.test/wp-json/' }] });
  });

  it('leaves the links out when _fields does not ask for them', async () => {
    expect((await get('/', { _fields: 'name' })).reply.links).toBeUndefined();
    expect((await get('/', { _fields: 'name,_links.help' })).reply.links).toBeDefined();
  });
});
