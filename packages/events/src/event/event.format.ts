import type { LinkedKind, LinkedRow, Site } from '../post/index.ts';
import { isFloating, jsonLdDescription, renderedDescription, renderedExcerpt, renderedName } from '../post/index.ts';
import { formatEventTerm, type TermWithCount } from '../term/index.ts';
import { isoWithOffset, parseWall, wallDetails, wallToEpoch, zoneAbbr } from '../time/index.ts';
import { costBody, type ParsedCost } from './cost.ts';
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

const utcMs = (utc: string) => Date.parse(`${utc.replace(' ', 'T')}Z`);

/**
 * The plugin's Event (Tribe__Events__JSON_LD__Event): venue and first organizer as nested objects, offers when the
 * event has a cost (its range without symbols, `Free` as 0, the site currency code, valid from the publication day).
 */
function eventJsonLd(d: EventFormatDeps, e: EventRow, links: EventLinks, url: string): Record<string, unknown> {
  // `get_the_title` marks private and password-protected posts; the REST title does not, the JSON-LD name does.
  const mark = e.status === 'private' ? 'Private: ' : e.password !== '' ? 'Protected: ' : '';
  const out: Record<string, unknown> = { '@context': 'http://schema.org', '@type': 'Event', name: `${mark}${renderedName(e)}`, description: jsonLdDescription(e) };
  if (links.image) out.image = links.image.url;
  // The plugin adds a slash to the permalink; on a `?p=ID` link that yields `p=ID%2F/`.
  out.url = url.endsWith('/') ? url : `${url}%2F/`;
  out.eventAttendanceMode = 'https://schema.org/OfflineEventAttendanceMode';
  out.eventStatus = 'https://schema.org/EventScheduled';
  // Offsets from the stored local/UTC pairs; an end clamped to its start has no such pair (§4.3).
  const offset = (local: string, utc: string) => (wallToEpoch(parseWall(local)) - wallToEpoch(parseWall(utc))) / 60_000;
  out.startDate = isoWithOffset(parseWall(e.start_local), e.timezone, offset(e.start_local, e.start_utc));
  out.endDate = isoWithOffset(parseWall(e.end_local), e.timezone, e.end_utc >= e.start_utc ? offset(e.end_local, e.end_utc) : undefined);
  if (links.venue) out.location = d.venueKind.format(d.site, links.venue, true).json_ld;
  const first = links.organizers[0];
  if (first) out.organizer = d.organizerKind.format(d.site, first, true).json_ld;
  const price = costBody(e.cost, { symbol: '', position: '' }, { symbol: '', position: 'prefix' }).cost;
  if (price !== '') {
    out.offers = {
      '@type': 'Offer', price: price.toLowerCase() === 'free' ? '0' : price, priceCurrency: d.site.currencyCode, url: out.url,
      category: 'primary', availability: 'inStock', validFrom: `${e.date_local.slice(0, 10)}T00:00:00+00:00`,
    };
  }
  out.performer = 'Organization';
  return out;
}

/**
 * The event body in the plugin's key order (§1.3). `jsonLd` (GET of one event) adds `json_ld` to the event and to
 * its venue and organizers.
 */
export function formatEvent(d: EventFormatDeps, e: EventRow, links: EventLinks, jsonLd: boolean): Record<string, unknown> {
  const { site } = d;
  const own: ParsedCost = { symbol: e.currency_symbol, position: e.currency_position as ParsedCost['position'] };
  const cost = costBody(e.cost, own, { symbol: site.currencySymbol, position: site.currencyPosition });
  const start = parseWall(e.start_local);
  const end = parseWall(e.end_local);
  const startUtc = parseWall(e.start_utc);
  const endUtc = parseWall(e.end_utc);
  const globalId = site.globalId(e.id);
  const url = site.permalink('event', e);
  const body: Record<string, unknown> = {
    id: e.id, global_id: globalId, global_id_lineage: [globalId], author: String(e.author), status: e.status,
    date: e.date_local, date_utc: e.date_gmt, modified: e.modified_local, modified_utc: e.modified_gmt,
    url, rest_url: `${site.rest}/events/${e.id}`,
    title: renderedName(e), description: renderedDescription(e), excerpt: renderedExcerpt(e),
    // WordPress names drafts and pending posts only when they are published.
    slug: isFloating(e.status) ? '' : e.slug, image: links.image ?? false,
    all_day: e.all_day === 1,
    start_date: e.start_local, start_date_details: wallDetails(start), end_date: e.end_local, end_date_details: wallDetails(end),
    utc_start_date: e.start_utc, utc_start_date_details: wallDetails(startUtc), utc_end_date: e.end_utc, utc_end_date_details: wallDetails(endUtc),
    // The stored local and UTC starts give the offset in force at the start.
    timezone: e.timezone, timezone_abbr: zoneAbbr(e.timezone, utcMs(e.start_utc), (wallToEpoch(start) - wallToEpoch(startUtc)) / 60_000),
    cost: cost.cost,
    cost_details: { currency_symbol: own.symbol, currency_code: '', currency_position: own.position, values: cost.values },
    website: e.website ?? url,
    show_map: e.show_map === 1, show_map_link: e.show_map_link === 1, hide_from_listings: e.hide_from_listings === 1,
    sticky: e.menu_order === -1, featured: e.featured === 1,
    categories: links.categories.map((t) => formatEventTerm(site, t)),
    tags: links.tags.map((t) => formatEventTerm(site, t)),
    venue: links.venue ? d.venueKind.format(site, links.venue, jsonLd) : [],
    organizer: links.organizers.map((o) => d.organizerKind.format(site, o, jsonLd)),
    custom_fields: [],
  };
  if (jsonLd) body.json_ld = eventJsonLd(d, e, links, url);
  return body;
}
