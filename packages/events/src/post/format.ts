import type { PostRow } from './post.repository.ts';
import type { PostKind, Site } from './site.ts';
import { renderContent, renderTitle } from './html.ts';

/** The post fields every venue, organizer and event body starts with. */
export function postHead(site: Site, kind: PostKind, row: PostRow) {
  return {
    id: row.id, author: String(row.author), status: row.status,
    date: row.date_local, date_utc: row.date_gmt, modified: row.modified_local, modified_utc: row.modified_gmt,
    url: site.permalink(kind, row.slug),
  };
}

export const renderedName = (row: PostRow): string => renderTitle(row.title);
export const renderedDescription = (row: PostRow): string => renderContent(row.content);
export const renderedExcerpt = (row: PostRow): string => renderContent(row.excerpt);

/** Venues and organizers drop every empty value (`""`, false, 0, `"0"`, `[]`, null), as the plugin does. */
export function dropEmpty(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === '' || v === false || v === 0 || v === '0' || v === null || v === undefined || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}

/** Plain text for schema.org descriptions. */
export const plainText = (html: string): string => html.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
