import { Type } from '@sinclair/typebox';
import { declared, invalid } from '../http/args.ts';
import {
  dropEmpty,
  isTruthy,
  jsonLdDescription,
  putFilled,
  putLinkedHead,
  renderedName,
  type LinkedKind,
  type LinkedRow,
  type Params,
} from '../post/index.ts';

const TEXT_FIELDS = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince'] as const;
const TEXT_FIELD_DESCRIPTIONS: Record<(typeof TEXT_FIELDS)[number], string> = {
  address: 'The venue address',
  city: 'The venue city',
  country: 'The venue country',
  province: 'The venue province',
  state: 'The venue state',
  zip: 'The venue ZIP code',
  phone: 'The venue phone number',
  stateprovince: 'The venue state and province',
};
/** Detail columns in body order. */
const DETAIL_FIELDS = [
  'address',
  'city',
  'country',
  'province',
  'state',
  'zip',
  'phone',
  'website',
  'stateprovince',
  'geo_lat',
  'geo_lng',
] as const;

/** The plugin derives stateprovince: the state for the US (or no country), otherwise the province. */
function deriveStateProvince(v: { state: string; province: string; country: string }): string {
  const us = v.country === '' || v.country === 'US' || v.country === 'United States';
  return (us ? v.state : v.province) || v.province || v.state || '';
}

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** `tribe_get_region`: the stored stateprovince, else the state in the United States and the province elsewhere. */
const region = (row: LinkedRow) => row.stateprovince || (row.country === 'United States' ? row.state : row.province);

/** The plugin's Place (Tribe__Events__JSON_LD__Venue): text keys always present, address parts only when set. */
function venueJsonLd(row: LinkedRow, image: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {
    '@type': 'Place',
    name: renderedName(row),
    description: jsonLdDescription(row),
  };
  if (image) out.image = image.url;
  // The plugin's venue `url` is the single-venue page it does not link from JSON-LD: always empty.
  out.url = '';
  out.address = dropEmpty({
    '@type': 'PostalAddress',
    streetAddress: row.address,
    addressLocality: row.city,
    addressRegion: region(row),
    postalCode: row.zip,
    addressCountry: row.country,
  });
  if (row.geo_lat !== null && row.geo_lng !== null)
    out.geo = { '@type': 'GeoCoordinates', latitude: row.geo_lat, longitude: row.geo_lng };
  out.telephone = row.phone;
  out.sameAs = row.website;
  return out;
}

export const venueKind: LinkedKind = {
  kind: 'venue',
  route: 'venues',
  nameField: 'venue',
  label: 'Venue',
  type: 'tribe_venue',
  table: 'venues',
  searchColumns: ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  textFields: TEXT_FIELDS,
  writeArgs: {
    show_map: Type.Optional(
      Type.String({
        description: 'Whether events linked to the venue should show a map or not',
        ...declared({ default: null }),
      }),
    ),
    show_map_link: Type.Optional(
      Type.String({
        description: 'Whether events linked to the venue should show a map link or not',
        ...declared({ default: null }),
      }),
    ),
    ...Object.fromEntries(
      TEXT_FIELDS.map((f) => [
        f,
        Type.Optional(Type.String({ description: TEXT_FIELD_DESCRIPTIONS[f], ...declared({ default: null }) })),
      ]),
    ),
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
    // The plugin's saveVenueMeta derives stateprovince on every write from what that write sends (nothing sent: empty).
    if (!sent.has('stateprovince')) {
      const pick = (f: 'state' | 'province' | 'country') => (sent.has(f) ? str(p[f]) : '');
      out.stateprovince = deriveStateProvince({
        state: pick('state'),
        province: pick('province'),
        country: pick('country'),
      });
    }
    return out;
  },
  format(site, row, jsonLd, image) {
    // Written field by field (the plugin's key order, empty values dropped): lists format up to 50 of these.
    const out: Record<string, unknown> = {};
    putLinkedHead(out, site, 'venue', row, image);
    for (const f of DETAIL_FIELDS) putFilled(out, f, row[f]);
    if (jsonLd) out.json_ld = venueJsonLd(row, image);
    out.show_map = row.show_map === 1;
    out.show_map_link = row.show_map_link === 1;
    const globalId = site.globalId(row.id);
    out.global_id = globalId;
    out.global_id_lineage = [globalId];
    return out;
  },
};
