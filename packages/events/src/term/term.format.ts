import type { Taxonomy } from '../db/index.ts';
import type { Site } from '../post/index.ts';
import type { TermWithCount } from './term.repository.ts';

export const TAXONOMY_ROUTE: Readonly<Record<Taxonomy, 'categories' | 'tags'>> = { tribe_events_cat: 'categories', post_tag: 'tags' };

function termUrls(site: Site, t: TermWithCount) {
  const collection = `${site.rest}/${TAXONOMY_ROUTE[t.taxonomy]}`;
  const urls: { self: string; collection: string; up?: string } = { self: `${collection}/${t.id}`, collection };
  if (t.parent !== 0) urls.up = `${collection}/${t.parent}`;
  return urls;
}

/** A term as the category and tag routes return it (§1.6). */
export function formatTerm(site: Site, t: TermWithCount): Record<string, unknown> {
  const out: Record<string, unknown> = { id: t.id, count: t.count, description: t.description, name: t.name, slug: t.slug, taxonomy: t.taxonomy };
  if (t.taxonomy === 'tribe_events_cat') out.parent = t.parent;
  out.meta = [];
  out.url = t.taxonomy === 'tribe_events_cat' ? `${site.home}/events/category/${t.slug}/` : `${site.home}/tag/${t.slug}/`;
  out.urls = termUrls(site, t);
  return out;
}

/** A term as embedded in an event: the raw WordPress term, renamed, without a public url (§1.3). */
export function formatEventTerm(site: Site, t: TermWithCount): Record<string, unknown> {
  return {
    name: t.name, slug: t.slug, term_group: 0, term_taxonomy_id: t.id, taxonomy: t.taxonomy, description: t.description,
    parent: t.parent, count: t.count, filter: 'raw', id: t.id, urls: termUrls(site, t),
  };
}
