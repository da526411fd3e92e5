import type { PostRow } from './post.repository.ts';
import type { PostKind, Site } from './site.ts';
import { renderContent, renderTitle } from './html.ts';
import { shownStoredDate } from '../time/index.ts';

/** The post fields every venue, organizer and event body starts with. */
export function postHead(site: Site, kind: PostKind, row: PostRow) {
  return {
    id: row.id,
    author: String(row.author),
    status: row.status,
    date: shownStoredDate(row.date_local),
    date_utc: shownStoredDate(row.date_gmt),
    modified: shownStoredDate(row.modified_local),
    modified_utc: shownStoredDate(row.modified_gmt),
    url: site.permalink(kind, row),
  };
}

export const renderedName = (row: PostRow): string => renderTitle(row.title);
export const renderedDescription = (row: PostRow): string => renderContent(row.content);
export const renderedExcerpt = (row: PostRow): string => renderContent(row.excerpt);

const isEmpty = (v: unknown): boolean =>
  v === '' ||
  v === false ||
  v === 0 ||
  v === '0' ||
  v === null ||
  v === undefined ||
  (Array.isArray(v) && v.length === 0);

/** Venues and organizers drop every empty value (`""`, false, 0, `"0"`, `[]`, null), as the plugin does. */
export function dropEmpty(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in obj) putFilled(out, k, obj[k]);
  return out;
}

/** `out[key] = value` unless the value is empty in `dropEmpty`'s sense: builds a body in place, without copies. */
export function putFilled(out: Record<string, unknown>, key: string, value: unknown): void {
  if (!isEmpty(value)) out[key] = value;
}

/**
 * The start of a venue or organizer body, empty values dropped: `postHead`, then the rendered name under the kind's
 * own key, description, excerpt, slug and the featured image (compat §1.4/§1.5 key order).
 */
export function putLinkedHead(
  out: Record<string, unknown>,
  site: Site,
  kind: 'venue' | 'organizer',
  row: PostRow,
  image: unknown,
): void {
  putFilled(out, 'id', row.id);
  putFilled(out, 'author', String(row.author));
  putFilled(out, 'status', row.status);
  putFilled(out, 'date', shownStoredDate(row.date_local));
  putFilled(out, 'date_utc', shownStoredDate(row.date_gmt));
  putFilled(out, 'modified', shownStoredDate(row.modified_local));
  putFilled(out, 'modified_utc', shownStoredDate(row.modified_gmt));
  putFilled(out, 'url', site.permalink(kind, row));
  putFilled(out, kind, renderedName(row));
  putFilled(out, 'description', renderedDescription(row));
  putFilled(out, 'excerpt', renderedExcerpt(row));
  putFilled(out, 'slug', row.slug);
  putFilled(out, 'image', image);
}

/** Plain text for schema.org descriptions. */
export const plainText = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
