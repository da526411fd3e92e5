import { Type } from '@sinclair/typebox';
import { dropEmpty, plainText, postHead, renderedDescription, renderedExcerpt, renderedName,
  type LinkedKind, type LinkedRow, type Site } from '../post/index.ts';

function organizerJsonLd(site: Site, row: LinkedRow): Record<string, unknown> {
  return dropEmpty({
    '@context': 'http://schema.org', '@type': 'Person', name: row.title, description: plainText(renderedDescription(row)),
    url: site.permalink('organizer', row.slug), telephone: row.phone, email: row.email, sameAs: row.website,
  });
}

export const organizerKind: LinkedKind = {
  kind: 'organizer', route: 'organizers', nameField: 'organizer', label: 'Organizer', type: 'tribe_organizer', table: 'organizers',
  searchColumns: ['phone', 'email', 'website'],
  writeArgs: {
    phone: Type.Optional(Type.String({ description: 'The organizer phone number' })),
    // The plugin does no e-mail format validation (§4.9); neither do we.
    email: Type.Optional(Type.String({ description: 'The organizer e-mail address' })),
  },
  writeValidators: {},
  detailsFrom(p, sent, existing) {
    const out: Record<string, unknown> = {};
    for (const f of ['phone', 'website', 'email']) {
      if (sent.has(f)) out[f] = p[f] === undefined || p[f] === null ? '' : String(p[f]);
      else if (!existing) out[f] = '';
    }
    return out;
  },
  format(site, row, single) {
    return {
      ...dropEmpty({
        ...postHead(site, 'organizer', row), organizer: renderedName(row), description: renderedDescription(row),
        excerpt: renderedExcerpt(row), slug: row.slug, image: false, phone: row.phone, website: row.website, email: row.email,
        json_ld: single ? organizerJsonLd(site, row) : null,
      }),
      global_id: site.globalId(row.id), global_id_lineage: [site.globalId(row.id)],
    };
  },
};
