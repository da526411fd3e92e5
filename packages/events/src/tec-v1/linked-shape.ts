import type { LinkedRow, Site } from '../post/index.ts';
import { postFields } from './post-shape.ts';

// Venues and organizers as `tec/v1` shows them: the post fields, then the plugin's properties (NOTES §4).

const text = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** PHP's urlencode: spaces as `+`, and the few characters encodeURIComponent leaves alone. */
const urlencode = (s: string): string =>
  encodeURIComponent(s)
    .replace(/%20/g, '+')
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** The region a venue's address shows: the stored state/province field, else the state or the province. */
const region = (row: LinkedRow): string => text(row.stateprovince) || text(row.state) || text(row.province);

/** `tribe_get_map_link`: a Google Maps search for the address parts that are set, `&` escaped as in the plugin. */
function directionsLink(row: LinkedRow): string {
  const parts = [text(row.address), text(row.city), region(row), text(row.zip), text(row.country)].filter(
    (p) => p !== '',
  );
  if (parts.length === 0) return '';
  return `https://maps.google.com/maps?f=q&#038;source=s_q&#038;hl=en&#038;geocode=&#038;q=${urlencode(parts.join(' '))}`;
}

export function tecVenue(site: Site, row: LinkedRow): Record<string, unknown> {
  return {
    ...postFields(site, 'venue', row, typeof row.thumbnail_id === 'number' ? row.thumbnail_id : null),
    address: text(row.address),
    country: text(row.country),
    city: text(row.city),
    state_province: text(row.stateprovince),
    state: text(row.state),
    province: text(row.province),
    zip: text(row.zip),
    phone: text(row.phone),
    directions_link: directionsLink(row),
    website: text(row.website),
  };
}

export function tecOrganizer(site: Site, row: LinkedRow): Record<string, unknown> {
  return {
    ...postFields(site, 'organizer', row, typeof row.thumbnail_id === 'number' ? row.thumbnail_id : null),
    phone: text(row.phone),
    website: text(row.website),
    email: text(row.email),
  };
}
