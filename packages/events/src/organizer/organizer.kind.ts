import { Type } from '@sinclair/typebox';
import { declared } from '../http/args.ts';
import {
  jsonLdDescription,
  putFilled,
  putLinkedHead,
  renderedName,
  type LinkedKind,
  type LinkedRow,
} from '../post/index.ts';

/** The plugin's Person (Tribe__Events__JSON_LD__Organizer): every text key present, `url` is the website. */
function organizerJsonLd(row: LinkedRow, image: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {
    '@type': 'Person',
    name: renderedName(row),
    description: jsonLdDescription(row),
  };
  if (image) out.image = image.url;
  Object.assign(out, { url: row.website, telephone: row.phone, email: row.email, sameAs: row.website });
  return out;
}

export const organizerKind: LinkedKind = {
  kind: 'organizer',
  route: 'organizers',
  nameField: 'organizer',
  label: 'Organizer',
  type: 'tribe_organizer',
  table: 'organizers',
  searchColumns: ['phone', 'email', 'website'],
  textFields: ['phone', 'email'],
  writeArgs: {
    phone: Type.Optional(Type.String({ description: 'The organizer phone number', ...declared({ default: null }) })),
    // The plugin does no e-mail format validation (§4.9); neither do we.
    email: Type.Optional(Type.String({ description: 'The organizer e-mail address', ...declared({ default: null }) })),
  },
  declaredNullDefaults: ['author', 'date', 'date_utc', 'organizer', 'description', 'status', 'website', 'image'],
  writeValidators: {},
  detailsFrom(p, sent, existing) {
    const out: Record<string, unknown> = {};
    for (const f of ['phone', 'website', 'email']) {
      if (sent.has(f)) out[f] = p[f] === undefined || p[f] === null ? '' : String(p[f]);
      else if (!existing) out[f] = '';
    }
    return out;
  },
  format(site, row, jsonLd, image) {
    // Written field by field (the plugin's key order, empty values dropped): lists format up to 50 of these.
    const out: Record<string, unknown> = {};
    putLinkedHead(out, site, 'organizer', row, image);
    putFilled(out, 'phone', row.phone);
    putFilled(out, 'website', row.website);
    putFilled(out, 'email', row.email);
    if (jsonLd) out.json_ld = organizerJsonLd(row, image);
    const globalId = site.globalId(row.id);
    out.global_id = globalId;
    out.global_id_lineage = [globalId];
    return out;
  },
};
