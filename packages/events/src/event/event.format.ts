import type { LinkedKind, LinkedRow, Site } from '../post/index.ts';
import { isFloating, jsonLdDescription, renderedDescription, renderedExcerpt, renderedName } from '../post/index.ts';
import { formatEventTerm, type TermWithCount } from '../term/index.ts';
import {
  isoWithOffset,
  readStoredWall,
  shownStoredDate,
  wallDetails,
  wallToEpoch,
  zoneAbbr,
  type Wall,
} from '../time/index.ts';
import { costBody, type ParsedCost } from './cost.ts';
import type { EventRow } from './event.repository.ts';
import { EVENT_FIELD_SHAPES } from './field-rules.ts';

export interface EventLinks {
  venue?: LinkedRow;
  organizers: LinkedRow[];
  categories: TermWithCount[];
  tags: TermWithCount[];
  /** The featured image body (§1.2); absent means `image: false`. */
  image?: Record<string, unknown>;
}

export interface EventFormatDeps {
  site: Site;
  venueKind: LinkedKind;
  organizerKind: LinkedKind;
}

const utcMs = (utc: string) => Date.parse(`${utc.replace(' ', 'T')}Z`);

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

/**
 * The plugin's Event (Tribe__Events__JSON_LD__Event): venue and first organizer as nested objects, offers when the
 * event has a cost (its range without symbols, `Free` as 0, the site currency code, valid from the publication day).
 */
function eventJsonLd(d: EventFormatDeps, e: EventRow, links: EventLinks, url: string): Record<string, unknown> {
  // `get_the_title` marks private and password-protected posts; the REST title does not, the JSON-LD name does.
  const mark = e.status === 'private' ? 'Private: ' : e.password !== '' ? 'Protected: ' : '';
  const out: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: `${mark}${renderedName(e)}`,
    description: jsonLdDescription(e),
  };
  if (links.image) out.image = links.image.url;
  // The plugin adds a slash to the permalink; on a `?p=ID` link that yields `p=ID%2F/`.
  out.url = url.endsWith('/') ? url : `${url}%2F/`;
  out.eventAttendanceMode = 'https://schema.org/OfflineEventAttendanceMode';
  out.eventStatus = 'https://schema.org/EventScheduled';
  // Offsets from the stored local/UTC pairs; an end clamped to its start has no such pair (§4.3). Dates that cannot
  // be read (a broken stored row) are left out rather than failing the answer.
  const [start, startUtc, end, endUtc] = [e.start_local, e.start_utc, e.end_local, e.end_utc].map(readStoredWall);
  if (start && startUtc && end && endUtc) {
    const offset = (local: Wall, utc: Wall) => (wallToEpoch(local) - wallToEpoch(utc)) / 60_000;
    out.startDate = isoWithOffset(start, e.timezone, offset(start, startUtc));
    out.endDate = isoWithOffset(end, e.timezone, e.end_utc >= e.start_utc ? offset(end, endUtc) : undefined);
  }
  if (links.venue) out.location = d.venueKind.format(d.site, links.venue, true).json_ld;
  const first = links.organizers[0];
  if (first) out.organizer = d.organizerKind.format(d.site, first, true).json_ld;
  const price = costBody(e.cost, { symbol: '', position: '' }, { symbol: '', position: 'prefix' }).cost;
  if (price !== '') {
    out.offers = {
      '@type': 'Offer',
      price: price.toLowerCase() === 'free' ? '0' : price,
      priceCurrency: d.site.currencyCode,
      url: out.url,
      category: 'primary',
      availability: 'inStock',
      validFrom: `${e.date_local.slice(0, 10)}T00:00:00+00:00`,
    };
  }
  out.performer = 'Organization';
  return out;
}

/**
 * The event body in the plugin's key order (§1.3). `jsonLd` (GET of one event) adds `json_ld` to the event and to
 * its venue and organizers.
 */
export function formatEvent(
  d: EventFormatDeps,
  e: EventRow,
  links: EventLinks,
  jsonLd: boolean,
): Record<string, unknown> {
  const { site } = d;
  const own: ParsedCost = { symbol: e.currency_symbol, position: e.currency_position as ParsedCost['position'] };
  const cost = costBody(e.cost, own, { symbol: site.currencySymbol, position: site.currencyPosition });
  const start = shownDate(e.start_local);
  const end = shownDate(e.end_local);
  const startUtc = shownDate(e.start_utc);
  const endUtc = shownDate(e.end_utc);
  const globalId = site.globalId(e.id);
  const url = site.permalink('event', e);
  const base: Record<string, unknown> = {
    id: e.id,
    global_id: globalId,
    global_id_lineage: [globalId],
    author: String(e.author),
    status: e.status,
    date: shownStoredDate(e.date_local),
    date_utc: shownStoredDate(e.date_gmt),
    modified: shownStoredDate(e.modified_local),
    modified_utc: shownStoredDate(e.modified_gmt),
    url,
    rest_url: `${site.rest}/events/${e.id}`,
    title: renderedName(e),
    description: renderedDescription(e),
    excerpt: renderedExcerpt(e),
    // WordPress names drafts and pending posts only when they are published.
    slug: isFloating(e.status) ? '' : e.slug,
    image: links.image ?? false,
    all_day: e.all_day === 1,
    start_date: start.text,
    start_date_details: start.details,
    end_date: end.text,
    end_date_details: end.details,
    utc_start_date: startUtc.text,
    utc_start_date_details: startUtc.details,
    utc_end_date: endUtc.text,
    utc_end_date_details: endUtc.details,
    // The stored local and UTC starts give the offset in force at the start.
    timezone: e.timezone,
    timezone_abbr:
      start.wall && startUtc.wall
        ? zoneAbbr(e.timezone, utcMs(e.start_utc), (wallToEpoch(start.wall) - wallToEpoch(startUtc.wall)) / 60_000)
        : '',
    cost: cost.cost,
    cost_details: {
      currency_symbol: own.symbol,
      currency_code: '',
      currency_position: own.position,
      values: cost.values,
    },
    sticky: e.menu_order === -1,
    categories: links.categories.map((t) => formatEventTerm(site, t)),
    tags: links.tags.map((t) => formatEventTerm(site, t)),
    venue: links.venue ? d.venueKind.format(site, links.venue, jsonLd) : [],
    organizer: links.organizers.map((o) => d.organizerKind.format(site, o, jsonLd)),
    custom_fields: [],
  };
  // The fields of their own (website, the map and listing flags, featured) take their places from fields.ts.
  const body = EVENT_FIELD_SHAPES.tribeBody(base, e, url);
  if (jsonLd) body.json_ld = eventJsonLd(d, e, links, url);
  return body;
}
