import { venueKind } from '../../venue/index.ts';
import { organizerKind } from '../../organizer/index.ts';
import { authorIdOf, type TecEvent, type TecItem } from './tec-items.ts';

type Params = Record<string, unknown>;
/** Source id → target id of the items written so far (undefined: not written yet). */
export type IdMap = (id: number) => number | undefined;

// The fields written, as the plugin's answers name them and its write routes take them. Left out: `author` (mapped
// to the local user, `withAuthor`), images (set last, tec-images.ts), and fields the service derives (urls, counts,
// json_ld).
const LINKED_FIELDS = ['description', 'excerpt', 'status', 'date', 'website'];
const VENUE_FIELDS = ['venue', ...LINKED_FIELDS, ...venueKind.textFields, 'geo_lat', 'geo_lng'];
const ORGANIZER_FIELDS = ['organizer', ...LINKED_FIELDS, ...organizerKind.textFields];
const EVENT_FIELDS = [
  'title',
  'description',
  'excerpt',
  'status',
  'date',
  'start_date',
  'end_date',
  'all_day',
  'timezone',
  'website',
  'featured',
  'sticky',
];

function pick(json: Params, fields: readonly string[]): Params {
  const out: Params = {};
  // An empty text is no value: the write rules refuse an empty description, and a new post has none anyway.
  for (const f of fields) if (json[f] !== undefined && json[f] !== null && json[f] !== '') out[f] = json[f];
  return out;
}

/** `params` with the item's author mapped to a local user; without one (not read, not mapped) the writer's stays. */
function withAuthor(params: Params, json: Params, author: IdMap): Params {
  const source = authorIdOf(json);
  const local = source === undefined ? undefined : author(source);
  if (local !== undefined) params.author = local;
  return params;
}

/** A venue's or organizer's write; a venue's map flags go as the strings its write takes (`"1"`, `"0"`). */
export function linkedParams(kind: 'venue' | 'organizer', item: TecItem, author: IdMap): Params {
  if (kind === 'organizer') return withAuthor(pick(item.json, ORGANIZER_FIELDS), item.json, author);
  const params = pick(item.json, VENUE_FIELDS);
  for (const flag of ['show_map', 'show_map_link'])
    if (typeof item.json[flag] === 'boolean') params[flag] = item.json[flag] ? '1' : '0';
  return withAuthor(params, item.json, author);
}

/** A term's write: name, description and its parent mapped (0 until the parent is written). */
export function termParams(item: TecItem, map: IdMap): { name: string; description: string; parent: number } {
  const parent = typeof item.json.parent === 'number' && item.json.parent > 0 ? (map(item.json.parent) ?? 0) : 0;
  return {
    name: String(item.json.name),
    description: typeof item.json.description === 'string' ? item.json.description : '',
    parent,
  };
}

/**
 * The cost as stored: `cost` is shown with the site's default currency when the event has none of its own, so the
 * raw `cost_details.values` are sent, with the event's own symbol where it has one.
 */
function costOf(details: unknown): string[] | undefined {
  if (details === null || typeof details !== 'object') return undefined;
  const d = details as { values?: unknown; currency_symbol?: unknown; currency_position?: unknown };
  if (!Array.isArray(d.values) || d.values.length === 0) return undefined;
  const symbol = typeof d.currency_symbol === 'string' ? d.currency_symbol : '';
  return d.values.map((v) =>
    symbol === '' ? String(v) : d.currency_position === 'postfix' ? `${String(v)}${symbol}` : `${symbol}${String(v)}`,
  );
}

/**
 * An event's write with its references mapped to target ids; a venue or organizer not written yet is left out
 * (`complete: false`) and linked by a second write once it is. One `skipped` (refused, never to be written) is left
 * out for good: the write is complete without it.
 */
export function eventParams(
  e: TecEvent,
  maps: { venue: IdMap; organizer: IdMap; category: IdMap; tag: IdMap; author: IdMap },
  skipped: (kind: 'venues' | 'organizers', id: number) => boolean = () => false,
): { params: Params; complete: boolean } {
  const params = withAuthor(pick(e.json, EVENT_FIELDS), e.json, maps.author);
  // Without a website of its own an event shows its permalink there: that is the source's page, not a website.
  if (params.website === e.json.url) delete params.website;
  const cost = costOf(e.json.cost_details);
  if (cost !== undefined) params.cost = cost;
  const venue = e.venueId === undefined ? undefined : maps.venue(e.venueId);
  const organizers = e.organizerIds.map(maps.organizer);
  const mapped = (ids: readonly number[], map: IdMap) => ids.map(map).filter((id) => id !== undefined);
  if (venue !== undefined) params.venue = venue;
  if (organizers.length > 0) params.organizer = organizers.filter((id) => id !== undefined);
  params.categories = mapped(e.categoryIds, maps.category);
  params.tags = mapped(e.tagIds, maps.tag);
  const complete =
    (e.venueId === undefined || venue !== undefined || skipped('venues', e.venueId)) &&
    organizers.every((id, i) => id !== undefined || skipped('organizers', e.organizerIds[i]!));
  return { params, complete };
}

/**
 * Whether the stored item's params hold the source's: compared on the fields the source sent (an update writes only
 * those), in one key order.
 */
export function sameParams(stored: Params, source: Params): boolean {
  const keys = Object.keys(source).sort();
  return JSON.stringify(keys.map((k) => stored[k])) === JSON.stringify(keys.map((k) => source[k]));
}
