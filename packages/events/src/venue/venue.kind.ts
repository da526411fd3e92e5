import { Type } from '@sinclair/typebox';
import { declared, invalid } from '../http/args.ts';
import { dropEmpty, isTruthy, plainText, putFilled, putLinkedHead, renderedDescription,
  type LinkedKind, type LinkedRow, type Params, type Site } from '../post/index.ts';

const TEXT_FIELDS = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince'] as const;
const TEXT_FIELD_DESCRIPTIONS: Record<(typeof TEXT_FIELDS)[number], string> = {
  address: 'The venue address', city: 'The venue city', country: 'The venue country', province: 'The venue province',
  state: 'The venue state', zip: 'The venue ZIP code', phone: 'The venue phone number', stateprovince: 'The venue state and province',
};
/** Detail columns in body order. */
const DETAIL_FIELDS = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince', 'geo_lat', 'geo_lng'] as const;

/** The plugin derives stateprovince: the state for the US (or no country), otherwise the province. */
function deriveStateProvince(v: { state: string; province: string; country: string }): string {
  const us = v.country === '' || v.country === 'US' || v.country === 'United States';
  return (us ? v.state : v.province) || v.province || v.state || '';
}

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

function venueJsonLd(site: Site, row: LinkedRow, image: Record<string, unknown> | undefined): Record<string, unknown> {
  return dropEmpty({
    '@context': 'http://schema.org', '@type': 'Place', name: row.title, description: plainText(renderedDescription(row)), image: image?.url,
    url: site.permalink('venue', row.slug),
    address: dropEmpty({ '@type': 'PostalAddress', streetAddress: row.address, addressLocality: row.city,
      addressRegion: row.stateprovince, postalCode: row.zip, addressCountry: row.country }),
    geo: row.geo_lat !== null && row.geo_lng !== null ? { '@type': 'GeoCoordinates', latitude: row.geo_lat, longitude: row.geo_lng } : null,
    telephone: row.phone, sameAs: row.website,
  });
}

export const venueKind: LinkedKind = {
  kind: 'venue', route: 'venues', nameField: 'venue', label: 'Venue', type: 'tribe_venue', table: 'venues',
  searchColumns: ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  textFields: TEXT_FIELDS,
  writeArgs: {
    show_map: Type.Optional(Type.String({ description: 'Whether events linked to the venue should show a map or not', ...declared({ default: null }) })),
    show_map_link: Type.Optional(Type.String({ description: 'Whether events linked to the venue should show a map link or not', ...declared({ default: null }) })),
    ...Object.fromEntries(TEXT_FIELDS.map((f) => [f, Type.Optional(Type.String({ description: TEXT_FIELD_DESCRIPTIONS[f], ...declared({ default: null }) }))])),
    // Our extension (the plugin needs Pro to geocode): accepted, not in the plugin's declarations (README, differences).
    geo_lat: Type.Optional(Type.Number({ description: 'The venue latitude', ...declared({ hidden: true }) })),
    geo_lng: Type.Optional(Type.Number({ description: 'The venue longitude', ...declared({ hidden: true }) })),
  },
  declaredNullDefaults: ['description', 'website', 'image'],
  writeValidators: {
    geo_lat: (v) => (typeof v === 'number' && v >= -90 && v <= 90 ? true : invalid()),
    geo_lng: (v) => (typeof v === 'number' && v >= -180 && v <= 180 ? true : invalid()),
  },
  detailsFrom(p: Params, sent, existing) {
    const out: Record<string, unknown> = {};
    for (const f of [...TEXT_FIELDS, 'website']) {
      if (sent.has(f)) out[f] = str(p[f]);
      else if (!existing) out[f] = '';
    }
    for (const f of ['show_map', 'show_map_link']) {
      if (sent.has(f)) out[f] = isTruthy(p[f]) ? 1 : 0;
      else if (!existing) out[f] = 1;
    }
    for (const f of ['geo_lat', 'geo_lng']) if (sent.has(f)) out[f] = p[f];
    if (!sent.has('stateprovince') && (!existing || sent.has('state') || sent.has('province') || sent.has('country'))) {
      const pick = (f: 'state' | 'province' | 'country') => str(out[f] ?? existing?.[f]);
      out.stateprovince = deriveStateProvince({ state: pick('state'), province: pick('province'), country: pick('country') });
    }
    return out;
  },
  format(site, row, single, image) {
    // Written field by field (the plugin's key order, empty values dropped): lists format up to 50 of these.
    const out: Record<string, unknown> = {};
    putLinkedHead(out, site, 'venue', row, image);
    for (const f of DETAIL_FIELDS) putFilled(out, f, row[f]);
    if (single) putFilled(out, 'json_ld', venueJsonLd(site, row, image));
    out.show_map = row.show_map === 1;
    out.show_map_link = row.show_map_link === 1;
    const globalId = site.globalId(row.id);
    out.global_id = globalId;
    out.global_id_lineage = [globalId];
    return out;
  },
};
