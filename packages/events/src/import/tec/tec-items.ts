import { TecImportError } from './tec-error.ts';

type Json = Record<string, unknown>;

/** A venue, organizer, category or tag of the source: its id, slug and the fields of its answer as sent. */
export interface TecItem {
  readonly id: number;
  readonly slug: string;
  readonly json: Json;
}

/** A source event with the ids it refers to, read out of its nested venue, organizer and term objects. */
export interface TecEvent extends TecItem {
  readonly venueId: number | undefined;
  readonly organizerIds: readonly number[];
  readonly categoryIds: readonly number[];
  readonly tagIds: readonly number[];
  /** The nested answers: a draft venue or an empty term of an event may be missing from the lists. */
  readonly venues: readonly TecItem[];
  readonly organizers: readonly TecItem[];
  readonly categories: readonly TecItem[];
  readonly tags: readonly TecItem[];
}

/** Where an answer was read, for errors naming the URL and the field. */
export interface At {
  readonly url: string;
  readonly path: string;
}

const bad = (at: At, what: string) => new TecImportError('malformed', `${at.url}: ${at.path} ${what}`);

export function objectAt(v: unknown, at: At): Json {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw bad(at, 'is not an object');
  return v as Json;
}

export function arrayAt(v: unknown, at: At): unknown[] {
  if (!Array.isArray(v)) throw bad(at, 'is not an array');
  return v;
}

export function idAt(v: unknown, at: At): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw bad(at, 'is not a positive integer id');
  return v;
}

function stringAt(v: unknown, at: At): string {
  if (typeof v !== 'string') throw bad(at, 'is not a string');
  return v;
}

const child = (at: At, key: string | number): At => ({
  url: at.url,
  path: typeof key === 'number' ? `${at.path}[${key}]` : `${at.path}.${key}`,
});

/** A venue or organizer (`nameField` venue/organizer) or a term (`name`): id, slug and name checked. */
export function readItem(v: unknown, nameField: string, at: At): TecItem {
  const json = objectAt(v, at);
  const id = idAt(json.id, child(at, 'id'));
  const slug = stringAt(json.slug, child(at, 'slug'));
  stringAt(json[nameField], child(at, nameField));
  return { id, slug, json };
}

// The plugin answers an event without a venue with `venue: []`, and one organizer sometimes as an object.
const listOf = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);

/** An event of the events list: title, dates and the referenced items checked. */
export function readEvent(v: unknown, at: At): TecEvent {
  const item = readItem(v, 'title', at);
  const { json } = item;
  for (const key of ['start_date', 'end_date'] as const) stringAt(json[key], child(at, key));
  const venues = listOf(json.venue).map((x, i) => readItem(x, 'venue', child(child(at, 'venue'), i)));
  const organizers = listOf(json.organizer).map((x, i) => readItem(x, 'organizer', child(child(at, 'organizer'), i)));
  const terms = (key: string) => listOf(json[key]).map((x, i) => readItem(x, 'name', child(child(at, key), i)));
  const categories = terms('categories');
  const tags = terms('tags');
  return {
    ...item,
    venueId: venues[0]?.id,
    organizerIds: organizers.map((o) => o.id),
    categoryIds: categories.map((c) => c.id),
    tagIds: tags.map((t) => t.id),
    venues,
    organizers,
    categories,
    tags,
  };
}

/**
 * A user of the source as `/wp/v2/users` answers it. The view context has id, slug, name and website; the edit
 * context (the credentials may list users) adds the login, e-mail, roles and registration date.
 */
export interface TecUser {
  readonly id: number;
  readonly slug: string;
  readonly name: string;
  readonly url: string;
  readonly login?: string;
  readonly email?: string;
  readonly roles?: readonly string[];
  /** `registered_date`, RFC 3339. */
  readonly registered?: string;
}

const optionalString = (json: Json, key: string, at: At): string | undefined =>
  json[key] === undefined ? undefined : stringAt(json[key], child(at, key));

export function readUser(v: unknown, at: At): TecUser {
  const json = objectAt(v, at);
  const roles = json.roles === undefined ? undefined : arrayAt(json.roles, child(at, 'roles'));
  return {
    id: idAt(json.id, child(at, 'id')),
    slug: stringAt(json.slug, child(at, 'slug')),
    name: stringAt(json.name, child(at, 'name')),
    url: optionalString(json, 'url', at) ?? '',
    login: optionalString(json, 'username', at),
    email: optionalString(json, 'email', at),
    roles: roles?.map((r, i) => stringAt(r, child(child(at, 'roles'), i))),
    registered: optionalString(json, 'registered_date', at),
  };
}

/** The source id of an item's author: the plugin sends it as a string of digits (`"3"`), tec/v1 as a number. */
export function authorIdOf(json: Json): number | undefined {
  const raw = typeof json.author === 'string' && /^\d+$/.test(json.author) ? Number(json.author) : json.author;
  return typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0 ? raw : undefined;
}
