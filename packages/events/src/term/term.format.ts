import type { Taxonomy } from '../db/index.ts';
import type { Site } from '../post/index.ts';
import type { TermWithCount } from './term.repository.ts';

export const TAXONOMY_ROUTE: Readonly<Record<Taxonomy, 'categories' | 'tags'>> = {
  tribe_events_cat: 'categories',
  post_tag: 'tags',
};

function termUrls(site: Site, t: TermWithCount) {
  const collection = `${site.rest}/${TAXONOMY_ROUTE[t.taxonomy]}`;
  const urls: { self: string; collection: string; up?: string } = { self: `${collection}/${t.id}`, collection };
  if (t.parent !== 0) urls.up = `${collection}/${t.parent}`;
  return urls;
}

/** Slug and parent of every category: what hierarchical category URLs are built from. */
export type TermTree = ReadonlyMap<number, { readonly slug: string; readonly parent: number }>;

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const WP_BASE: Readonly<Record<Taxonomy, string>> = { tribe_events_cat: 'tribe_events_cat', post_tag: 'tags' };
// The post types registered for each taxonomy on the recorded site, in WordPress's `wp:post_type` link order.
const TAXONOMY_POST_TYPES: Readonly<Record<Taxonomy, readonly string[]>> = {
  tribe_events_cat: ['tribe_events', 'tec_calendar_embed'],
  post_tag: ['posts', 'tribe_events', 'tec_calendar_embed'],
};

/** Term names as WordPress stores them: `sanitize_term_field` HTML-escapes a bare `&`. */
export const storedTermName = (name: string): string =>
  name.replace(/&(?!(?:[a-z][a-z0-9]*|#\d+|#x[0-9a-f]+);)/gi, '&amp;');

/** `get_term_link`: categories under their ancestors' slugs (`/events/category/arts-culture/theatre/`). */
function termLink(site: Site, t: TermWithCount, tree: TermTree): string {
  if (t.taxonomy === 'post_tag') return `${site.home}/tag/${t.slug}/`;
  const slugs = [t.slug];
  const seen = new Set([t.id]);
  for (let p = t.parent; p !== 0 && !seen.has(p); p = tree.get(p)?.parent ?? 0) {
    seen.add(p);
    const up = tree.get(p);
    if (up) slugs.unshift(up.slug);
  }
  return `${site.home}/events/category/${slugs.join('/')}/`;
}

/** The core terms controller's `_links` on a single term answer; `allow` is what the caller may do with it. */
function termLinks(site: Site, t: TermWithCount, allow: readonly string[]): Record<string, unknown> {
  const wp = `${site.restRoot}wp/v2`;
  const base = WP_BASE[t.taxonomy];
  const query = t.taxonomy === 'post_tag' ? 'tags' : t.taxonomy;
  const links: Record<string, unknown> = {
    self: [{ href: `${wp}/${base}/${t.id}`, targetHints: { allow } }],
    collection: [{ href: `${wp}/${base}` }],
    about: [{ href: `${wp}/taxonomies/${t.taxonomy}` }],
  };
  if (t.parent !== 0) links.up = [{ embeddable: true, href: `${wp}/${base}/${t.parent}` }];
  links['wp:post_type'] = TAXONOMY_POST_TYPES[t.taxonomy].map((type) => ({ href: `${wp}/${type}?${query}=${t.id}` }));
  links.curies = [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }];
  return links;
}

export interface TermFormatOptions {
  tree: TermTree;
  /** For single-term answers (GET, create, update): whether the caller may write the term, for `_links`. */
  links?: { canWrite: boolean };
}

/** A term as the category and tag routes return it (§1.6). */
export function formatTerm(site: Site, t: TermWithCount, o: TermFormatOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: t.id,
    count: t.count,
    description: t.description,
    name: storedTermName(t.name),
    slug: t.slug,
    taxonomy: t.taxonomy,
  };
  if (t.taxonomy === 'tribe_events_cat') out.parent = t.parent;
  out.meta = [];
  out.url = termLink(site, t, o.tree);
  out.urls = termUrls(site, t);
  if (o.links) out._links = termLinks(site, t, o.links.canWrite ? HTTP_METHODS : ['GET']);
  return out;
}

/** A term as embedded in an event: the raw WordPress term, renamed, without a public url (§1.3). */
export function formatEventTerm(site: Site, t: TermWithCount): Record<string, unknown> {
  return {
    name: storedTermName(t.name),
    slug: t.slug,
    term_group: 0,
    term_taxonomy_id: t.id,
    taxonomy: t.taxonomy,
    description: t.description,
    parent: t.parent,
    count: t.count,
    filter: 'raw',
    id: t.id,
    urls: termUrls(site, t),
  };
}
