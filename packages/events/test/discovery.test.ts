import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORES, startService, type Service } from './support/harness.ts';

describe.each(STORES)('discovery: namespace index and /doc ($name)', (factory) => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startService(factory);
  });
  afterAll(() => svc.close());

  it('lists every route by raw pattern in registration order', async () => {
    const res = await svc.get('');
    expect(res.status).toBe(200);
    expect(res.body.namespace).toBe('tribe/events/v1');
    const ns = '/tribe/events/v1';
    expect(Object.keys(res.body.routes)).toEqual([
      ns,
      `${ns}/doc`,
      `${ns}/events`,
      `${ns}/events/(?P<id>\\d+)`,
      `${ns}/events/by-slug/(?P<slug>[^/]+)`,
      `${ns}/venues`,
      `${ns}/venues/(?P<id>\\d+)`,
      `${ns}/venues/by-slug/(?P<slug>[^/]+)`,
      `${ns}/organizers`,
      `${ns}/organizers/(?P<id>\\d+)`,
      `${ns}/organizers/by-slug/(?P<slug>[^/]+)`,
      `${ns}/categories`,
      `${ns}/categories/(?P<id>\\d+)`,
      `${ns}/tags`,
      `${ns}/tags/(?P<id>\\d+)`,
    ]);
    const events = res.body.routes[`${ns}/events`];
    expect(events.endpoints.map((e: { methods: string[] }) => e.methods)).toEqual([['GET'], ['POST']]);
    // The plugin's declarations, quirks included: a string default for an integer, untyped date filters.
    expect(events.endpoints[0].args.per_page).toEqual({
      required: false,
      default: '10',
      type: 'integer',
      description: 'The number of events to return on each page',
    });
    expect(events.endpoints[0].args.start_date).toEqual({
      required: false,
      default: '2018-01-09 23:59:00',
      description: 'Events that start on the specified date',
    });
    expect(events.endpoints[0].args.categories).toEqual({
      required: false,
      items: { type: 'integer' },
      description: 'Events should be assigned one of the specified categories slugs or IDs',
    });
    expect(res.body.routes[`${ns}/doc`].endpoints[0].args).toEqual([]);
    expect(res.body.routes[`${ns}/venues`].endpoints[1].args).not.toHaveProperty('geo_lat');
    expect(events.endpoints[1].args.title.required).toBe(true);
    expect(events._links.self[0].href).toBe('http://wordpress.test/wp-json/tribe/events/v1/events');
    const item = res.body.routes[`${ns}/events/(?P<id>\\d+)`];
    expect(item.endpoints.map((e: { methods: string[] }) => e.methods)).toEqual([
      ['GET'],
      ['DELETE'],
      ['POST', 'PUT', 'PATCH'],
    ]);
    expect(item).not.toHaveProperty('_links');
    expect(item.endpoints[0].args.password).toEqual({
      required: false,
      type: 'string',
      description: 'The event password',
    });
    expect(res.body.routes[ns].endpoints[0].args).toMatchObject({
      namespace: { default: 'tribe/events/v1' },
      context: { default: 'view' },
    });
    expect(res.body._links.up[0].href).toBe('http://wordpress.test/wp-json/');
  });

  it('serves an OpenAPI 3.0.0 document at /doc', async () => {
    const res = await svc.get('/doc');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['openapi', 'info', 'components', 'servers', 'paths']);
    expect(res.body.openapi).toBe('3.0.0');
    expect(res.body.info).toMatchObject({ version: '1.0.0', title: 'The Events Calendar REST API' });
    expect(res.body.servers[0].url).toBe('http://wordpress.test/wp-json/tribe/events/v1/');
    expect(Object.keys(res.body.components.schemas)).toEqual([
      'ImageSize',
      'CostDetails',
      'Term',
      'Image',
      'DateDetails',
      'Event',
      'Venue',
      'Organizer',
    ]);
    expect(Object.keys(res.body.paths)).toEqual([
      '/doc',
      '/events',
      '/events/{id}',
      '/events/by-slug/{slug}',
      '/venues',
      '/venues/{id}',
      '/venues/by-slug/{slug}',
      '/organizers',
      '/organizers/{id}',
      '/organizers/by-slug/{slug}',
      '/categories',
      '/categories/{id}',
      '/tags',
      '/tags/{id}',
    ]);
    expect(res.body.paths['/events'].get.responses['200'].content['application/json'].schema).toEqual({
      title: 'events',
      type: 'array',
      items: { $ref: '#/components/schemas/Event' },
    });
    expect(res.body.paths['/events/{id}'].get).toBeDefined();
    const include = res.body.paths['/events'].get.parameters.find((p: { name: string }) => p.name === 'include');
    // swaggerize_args drops every false value, `explode: false` included.
    expect(include).toEqual({
      name: 'include',
      in: 'query',
      required: false,
      style: 'form',
      schema: { type: 'array', items: { type: 'integer' } },
      description:
        'Include events with one of the post IDs specified in the array of CSV list, date filters will be ignored.',
    });
    expect(res.body.components.schemas.ImageSize.properties.width).toEqual({
      type: 'integer',
      description: 'The image width in pixels in the specified size',
    });
  });

  it('documents the operations the plugin documents, with its texts and argument declarations', async () => {
    const { paths } = (await svc.get('/doc')).body;
    // Creating is documented on the item path only; PUT and PATCH are not documented.
    expect(Object.keys(paths['/events'])).toEqual(['get']);
    expect(Object.keys(paths['/events/{id}'])).toEqual(['get', 'post', 'delete']);
    const update = paths['/events/{id}'].post;
    expect(update.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'path:id',
      'path:password',
    ]);
    expect(Object.keys(update.responses)).toEqual(['200', '201', '400', '403']);
    const body = update.requestBody.content['application/x-www-form-urlencoded'].schema;
    expect(body.required).toBeUndefined();
    expect(body.properties.password).toBeUndefined();
    expect(body.properties.categories).toEqual({
      type: 'array',
      items: { type: 'integer' },
      description: 'The event category ID or name',
    });
    expect(body.properties.cost).toEqual({ type: 'string', description: 'The event cost' });
    // The plugin's organizer and category edit arguments repeat the id; a venue's do not.
    expect(
      Object.keys(
        paths['/organizers/{id}'].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties,
      )[0],
    ).toBe('id');
    expect(
      paths['/venues/{id}'].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties.id,
    ).toBeUndefined();
    // An accepted extension of ours is not documented.
    expect(
      paths['/venues/{id}'].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties.geo_lat,
    ).toBeUndefined();
    const hasEvents = paths['/venues'].get.parameters.find((p: { name: string }) => p.name === 'has_events');
    expect(hasEvents.schema).toEqual({ type: 'boolean' });
    expect(paths['/doc']).toEqual({
      get: {
        responses: {
          200: {
            description: 'Returns the documentation for The Events Calendar REST API in Swagger consumable format.',
          },
        },
      },
    });
  });
});
