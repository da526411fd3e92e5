import type { LinkedKind, LinkedRow, Site } from '../post/index.ts';
import { plainText, renderedDescription, renderedExcerpt, renderedName } from '../post/index.ts';
import { formatEventTerm, type TermWithCount } from '../term/index.ts';
import { isoWithOffset, readStoredWall, shownStoredDate, wallDetails, wallToEpoch, zoneAbbr, type Wall } from '../time/index.ts';
import { formatCost, parseCost } from './cost.ts';
import type { EventRow } from './event.repository.ts';

export interface EventLinks {
  venue?: LinkedRow;
  organizers: LinkedRow[];
  categories: TermWithCount[];
  tags: TermWithCount[];
  /** The featured image body (§1.2); absent means `image: false`. */
  image?: Record<string, unknown>;
}

export interface EventFormatDeps { site: Site; venueKind: LinkedKind; organizerKind: LinkedKind }

/**
 * A stored date-time as the body shows it. One that no write could have made (SQL from outside, an older version)
 * is shown as `""` with empty details rather than failing the whole response: a list never breaks on one row, and
 * an administrator can still read, repair (send start_date and end_date) or delete the event.
 */
function shownDate(text: string): { text: string; wall?: Wall; details: ReturnType<typeof wallDetails> } {
  const wall = readStoredWall(text);
  if (wall) return { text, wall, details: wallDetails(wall) };
  return { text: '', details: { year: '', month: '', day: '', hour: '', minutes: '', seconds: '' } };
}

function eventJsonLd(d: EventFormatDeps, e: EventRow, links: EventLinks, costValues: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {
    '@context': 'http://schema.org', '@type': 'Event', name: e.title, description: plainText(renderedDescription(e)),
    ...(links.image ? { image: links.image.url } : {}),
    url: d.site.permalink('event', e.slug),
  };
  const [start, end] = [readStoredWall(e.start_local), readStoredWall(e.end_local)];
  if (start && end) Object.assign(out, { startDate: isoWithOffset(start, e.timezone), endDate: isoWithOffset(end, e.timezone) });
  if (links.venue) out.location = d.venueKind.format(d.site, links.venue, true).json_ld;
  if (links.organizers.length > 0) out.organizer = links.organizers.map((o) => d.organizerKind.format(d.site, o, true).json_ld);
  out.performer = 'Organization';
  if (costValues.length > 0) out.offers = { '@type': 'Offer', price: costValues[0], url: d.site.permalink('event', e.slug) };
  return out;
}

/** The event body in the plugin's key order (§1.3); `single` adds `json_ld` and nested `json_ld`s. */
export function formatEvent(d: EventFormatDeps, e: EventRow, links: EventLinks, single: boolean): Record<string, unknown> {
  const { site } = d;
  const rawCost: string[] = e.cost === null ? [] : (JSON.parse(e.cost) as string[]);
  const parsed = parseCost(rawCost);
  const symbol = e.currency_symbol || (parsed.values.length ? site.currencySymbol : '');
  const position = (e.currency_position || (parsed.values.length ? site.currencyPosition : '')) as '' | 'prefix' | 'postfix';
  const start = shownDate(e.start_local);
  const end = shownDate(e.end_local);
  const startUtc = shownDate(e.start_utc);
  const endUtc = shownDate(e.end_utc);
  const globalId = site.globalId(e.id);
  const body: Record<string, unknown> = {
    id: e.id, global_id: globalId, global_id_lineage: [globalId], author: String(e.author), status: e.status,
    date: shownStoredDate(e.date_local), date_utc: shownStoredDate(e.date_gmt),
    modified: shownStoredDate(e.modified_local), modified_utc: shownStoredDate(e.modified_gmt),
    url: site.permalink('event', e.slug), rest_url: `${site.rest}/events/${e.id}`,
    title: renderedName(e), description: renderedDescription(e), excerpt: renderedExcerpt(e), slug: e.slug, image: links.image ?? false,
    all_day: e.all_day === 1,
    start_date: start.text, start_date_details: start.details, end_date: end.text, end_date_details: end.details,
    utc_start_date: startUtc.text, utc_start_date_details: startUtc.details, utc_end_date: endUtc.text, utc_end_date_details: endUtc.details,
    timezone: e.timezone, timezone_abbr: startUtc.wall ? zoneAbbr(e.timezone, wallToEpoch(startUtc.wall)) : '',
    cost: formatCost(rawCost, symbol, position === 'postfix' ? 'postfix' : 'prefix'),
    cost_details: { currency_symbol: symbol, currency_code: '', currency_position: position, values: parsed.values },
    website: e.website ?? site.permalink('event', e.slug),
    show_map: e.show_map === 1, show_map_link: e.show_map_link === 1, hide_from_listings: e.hide_from_listings === 1,
    sticky: e.menu_order === -1, featured: e.featured === 1,
    categories: links.categories.map((t) => formatEventTerm(site, t)),
    tags: links.tags.map((t) => formatEventTerm(site, t)),
    venue: links.venue ? d.venueKind.format(site, links.venue, single) : [],
    organizer: links.organizers.map((o) => d.organizerKind.format(site, o, single)),
    custom_fields: [],
  };
  if (single) body.json_ld = eventJsonLd(d, e, links, parsed.values);
  return body;
}
