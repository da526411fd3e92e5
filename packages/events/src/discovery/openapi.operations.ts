// Which operations `/doc` documents and the response texts it gives them, as TEC 6.17.2's endpoints write them in
// their get_documentation(): hand-written per endpoint, so PUT, PATCH and `POST /events` are not documented, every
// POST sits on the item path with both 200 and 201, and some texts are irregular (kept as the plugin has them).

export type Verb = 'get' | 'post' | 'delete';

export interface OperationDoc {
  /** Status → description; 200 and 201 also carry the entity schema (a list of them on a collection). */
  readonly responses: Readonly<Record<number, string>>;
  /** Request-body arguments the plugin documents although they are in the path (its edit args repeat them). */
  readonly bodyKeeps?: readonly string[];
}

export interface PathDoc {
  /** The component schema the answers carry; none for `/doc` itself. */
  readonly entity?: string;
  readonly ops: Partial<Record<Verb, OperationDoc>>;
}

interface Noun {
  readonly one: string;
  readonly a: string;
  readonly plural: string;
  readonly idWord: 'post' | 'term';
  readonly notFound: string;
}

const BAD_INPUT = 'A required parameter is missing or an input parameter is in the wrong format';

function collection(n: Noun, opts: { listed?: string; notFound?: string } = {}): OperationDoc {
  const notFound = opts.notFound ?? 'The requested page was not found.';
  return {
    responses: {
      200: `Returns all the ${opts.listed ?? n.plural} matching the search criteria`,
      400: 'One or more of the specified query variables has a bad format',
      404: notFound,
    },
  };
}

/** GET, POST and DELETE of one post or term, by id or slug. */
function item(
  n: Noun,
  opts: { withoutUpdated?: boolean; bodyKeeps?: readonly string[] } = {},
): Partial<Record<Verb, OperationDoc>> {
  const spec = n.idWord === 'post' ? 'ID' : 'term ID';
  const get: Record<number, string> =
    n.idWord === 'post'
      ? {
          200: `Returns the data of the ${n.one} with the specified post ID`,
          400: `The ${n.one} post ID is missing.`,
          403: `The ${n.one} with the specified ID is not accessible.`,
          404: n.notFound,
        }
      : {
          200: `Returns the data of the ${n.one} with the specified term ID`,
          400: `The ${n.one} term ID is missing.`,
          404: n.notFound,
        };
  const updated: Record<number, string> = opts.withoutUpdated
    ? {}
    : { 200: `Returns the data of the updated ${n.one}` };
  return {
    get: { responses: get },
    post: {
      responses: {
        ...updated,
        201: `Returns the data of the created ${n.one}`,
        400: BAD_INPUT,
        403: `The user is not authorized to create ${n.plural}`,
      },
      ...(opts.bodyKeeps ? { bodyKeeps: opts.bodyKeeps } : {}),
    },
    delete: {
      responses: {
        200: `Deletes ${n.a} ${n.one} and returns its data`,
        400: `The ${n.one} ${n.idWord} ID is missing or does not exist.`,
        403: `The current user cannot delete the ${n.one} with the specified ${spec}.`,
        410: `The ${n.one} with the specified ${spec} has been deleted already.`,
        500: `The ${n.one} with the specified ${spec} could not be deleted.`,
      },
    },
  };
}

const EVENT: Noun = {
  one: 'event',
  a: 'an',
  plural: 'events',
  idWord: 'post',
  notFound: 'An event with the specified ID does not exist.',
};
const VENUE: Noun = {
  one: 'venue',
  a: 'a',
  plural: 'venues',
  idWord: 'post',
  notFound: 'A venue with the specified post ID does not exist.',
};
const ORGANIZER: Noun = {
  one: 'organizer',
  a: 'an',
  plural: 'organizers',
  idWord: 'post',
  notFound: 'An organizer with the specified event does not exist.',
};
const CATEGORY: Noun = {
  one: 'event category',
  a: 'an',
  plural: 'event categories',
  idWord: 'term',
  notFound: 'An event category with the specified term ID does not exist.',
};
const TAG: Noun = {
  one: 'event tag',
  a: 'an',
  plural: 'event tags',
  idWord: 'term',
  notFound: 'An event tag with the specified term ID does not exist.',
};

/** The documented paths, in the plugin's order (OpenAPI path templates). */
export const DOCUMENTED_PATHS: Readonly<Record<string, PathDoc>> = {
  '/doc': {
    ops: {
      get: {
        responses: { 200: 'Returns the documentation for The Events Calendar REST API in Swagger consumable format.' },
      },
    },
  },
  '/events': { entity: 'Event', ops: { get: collection(EVENT, { listed: 'upcoming events' }) } },
  '/events/{id}': { entity: 'Event', ops: item(EVENT) },
  '/events/by-slug/{slug}': { entity: 'Event', ops: item(EVENT, { bodyKeeps: ['slug'] }) },
  '/venues': { entity: 'Venue', ops: { get: collection(VENUE) } },
  '/venues/{id}': { entity: 'Venue', ops: item(VENUE) },
  '/venues/by-slug/{slug}': { entity: 'Venue', ops: item(VENUE) },
  '/organizers': { entity: 'Organizer', ops: { get: collection(ORGANIZER) } },
  '/organizers/{id}': { entity: 'Organizer', ops: item(ORGANIZER, { withoutUpdated: true, bodyKeeps: ['id'] }) },
  '/organizers/by-slug/{slug}': {
    entity: 'Organizer',
    ops: item(ORGANIZER, { withoutUpdated: true, bodyKeeps: ['slug'] }),
  },
  '/categories': { entity: 'Term', ops: { get: collection(CATEGORY) } },
  '/categories/{id}': { entity: 'Term', ops: item(CATEGORY, { bodyKeeps: ['id'] }) },
  '/tags': {
    entity: 'Term',
    ops: { get: collection(TAG, { notFound: 'No event tags match the query or the requested page was not found.' }) },
  },
  '/tags/{id}': { entity: 'Term', ops: item(TAG) },
};
