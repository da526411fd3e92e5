import type { TSchema } from '@sinclair/typebox';
import { isRequired } from '../http/args.ts';
import type { CompiledRoute } from '../http/route.ts';
import type { Site } from '../post/index.ts';

const str = { type: 'string' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const props = (names: string[], type: object = str) => Object.fromEntries(names.map((n) => [n, type]));
const POST_HEAD = ['global_id', 'author', 'date', 'date_utc', 'modified', 'modified_utc', 'status', 'url'];

const SCHEMAS = {
  ImageSize: { type: 'object', properties: { width: int, height: int, 'mime-type': str, url: str } },
  CostDetails: { type: 'object', properties: { currency_symbol: str, currency_position: { type: 'string', enum: ['prefix', 'postfix'] }, values: { type: 'array', items: int } } },
  Term: { type: 'object', properties: { id: int, name: str, slug: str, taxonomy: str, description: str, parent: int, count: int, url: str, urls: { type: 'object' } } },
  Image: { type: 'object', properties: { url: str, id: int, extension: str, width: int, height: int, sizes: { type: 'object', additionalProperties: ref('ImageSize') } } },
  DateDetails: { type: 'object', properties: props(['year', 'month', 'day', 'hour', 'minutes', 'seconds'], int) },
  Event: { type: 'object', properties: {
    id: int, ...props(POST_HEAD), global_id_lineage: { type: 'array', items: str }, rest_url: str, title: str, description: str, excerpt: str,
    slug: str, image: ref('Image'), all_day: bool, start_date: str, start_date_details: ref('DateDetails'), end_date: str,
    end_date_details: ref('DateDetails'), utc_start_date: str, utc_start_date_details: ref('DateDetails'), utc_end_date: str,
    utc_end_date_details: ref('DateDetails'), timezone: str, timezone_abbr: str, cost: str, cost_details: ref('CostDetails'),
    website: str, show_map: bool, show_map_link: bool, hide_from_listings: bool, sticky: bool, featured: bool,
    categories: { type: 'array', items: ref('Term') }, tags: { type: 'array', items: ref('Term') }, venue: ref('Venue'),
    organizer: { type: 'array', items: ref('Organizer') } } },
  Venue: { type: 'object', properties: { id: int, ...props(POST_HEAD), global_id_lineage: { type: 'array', items: str },
    ...props(['venue', 'description', 'excerpt', 'slug']), image: ref('Image'), show_map: bool, show_map_link: bool,
    ...props(['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince']),
    geo_lat: { type: 'number' }, geo_lng: { type: 'number' } } },
  Organizer: { type: 'object', properties: { id: int, ...props(POST_HEAD), global_id_lineage: { type: 'array', items: str },
    ...props(['organizer', 'description', 'excerpt', 'slug']), image: ref('Image'), ...props(['phone', 'website', 'email']) } },
};

const ENTITY: Record<string, string> = { events: 'Event', venues: 'Venue', organizers: 'Organizer', categories: 'Term', tags: 'Term' };

function schemaOf(s: TSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof s.type === 'string') out.type = s.type;
  const items = s.items as TSchema | undefined;
  if (items && typeof items.type === 'string') out.items = { type: items.type };
  return out;
}

/** GET `/doc`: an OpenAPI 3.0.0 description of the namespace, generated from the same route table (§7.1). */
export function openApiDocument(site: Site, routes: readonly CompiledRoute[]): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const route of routes) {
    if (route.pattern === '') continue;
    const path = route.pattern.replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}');
    const collection = path.split('/')[1] ?? '';
    const entity = ENTITY[collection];
    const isList = !path.includes('{');
    const ops: Record<string, unknown> = {};
    for (const e of route.endpoints) {
      const verb = e.methods[0]!.toLowerCase();
      const entries = Object.entries(e.args.schema.properties as Record<string, TSchema>);
      const inPath = (n: string) => path.includes(`{${n}}`);
      const parameters = entries.filter(([n]) => verb === 'get' || verb === 'delete' || inPath(n)).map(([name, s]) => {
        const p: Record<string, unknown> = { name, in: inPath(name) ? 'path' : 'query', description: s.description ?? '', required: inPath(name) || isRequired(s), schema: schemaOf(s) };
        if (s.type === 'array') { p.style = 'form'; p.explode = false; }
        return p;
      });
      const okSchema = entity === undefined ? { type: 'object' }
        : isList && verb === 'get' ? { title: collection, type: 'array', items: ref(entity) } : ref(entity);
      const op: Record<string, unknown> = {
        parameters,
        responses: {
          [verb === 'post' && isList ? '201' : '200']: { description: 'The requested data', content: { 'application/json': { schema: okSchema } } },
          '400': { description: 'A required parameter is missing or an input parameter is in the wrong format' },
          ...(verb === 'get' ? {} : { '401': { description: 'The request is not authorized' }, '403': { description: 'The user may not do this' } }),
          '404': { description: 'The requested resource was not found' },
        },
      };
      if (verb === 'post') {
        const body = entries.filter(([n]) => !inPath(n));
        op.requestBody = { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object',
          properties: Object.fromEntries(body.map(([n, s]) => [n, { ...schemaOf(s), description: s.description ?? '' }])),
          required: body.filter(([, s]) => isRequired(s)).map(([n]) => n) } } } };
      }
      ops[verb] = op;
    }
    paths[path] = ops;
  }
  return {
    openapi: '3.0.0',
    info: { version: '1.0.0', title: 'The Events Calendar REST API', description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.' },
    components: { schemas: SCHEMAS },
    // The plugin drops the port here; we keep it so the URL works (README, differences).
    servers: [{ url: `${site.rest}/` }],
    paths,
  };
}
