import {
  isFloating,
  renderContent,
  renderTitle,
  ZERO_DATE,
  type PostRow,
  type Site,
  type PostKind,
} from '../post/index.ts';
import { formatWall, parseWall, utcToWall, wallToUtc } from '../time/index.ts';

// The WordPress post object `tec/v1` answers with (WP_REST_Posts_Controller::prepare_item_for_response without
// `_links` and `meta`, `link` = permalink), built from our rows. The plugin's own fields follow in each entity.

const POST_TYPES: Record<PostKind, string> = {
  event: 'tribe_events',
  venue: 'tribe_venue',
  organizer: 'tribe_organizer',
};

/** Core's `Y-m-d\TH:i:s`. */
const iso = (stored: string): string => stored.replace(' ', 'T');
/** A floating post's GMT date is its local date converted, as core's REST controller shows it. */
const isoGmt = (gmt: string, local: string, zone: string): string =>
  iso(gmt !== ZERO_DATE ? gmt : formatWall(utcToWall(wallToUtc(parseWall(local), zone), 'UTC')));

/** The post fields every `tec/v1` entity starts with, in core's key order. */
/**
 * WordPress' `guid`: the permalink the post had when it was created, fixed since (migration 013). Once the post has
 * a public permalink, the `?post_type=…&p=ID` form shows `&` as `&#038;`, as the stored guid is escaped.
 */
function guidOf(site: Site, kind: PostKind, row: PostRow, link: string): string {
  if (row.guid_slug === null) return link;
  const created = site.permalink(kind, {
    id: row.id,
    slug: row.guid_slug,
    status: row.guid_slug === '' ? 'draft' : 'publish',
  });
  return link.includes('?') ? created : created.replace(/&/g, '&#038;');
}

export function postFields(
  site: Site,
  kind: PostKind,
  row: PostRow,
  thumbnailId: number | null,
): Record<string, unknown> {
  const link = site.permalink(kind, row);
  return {
    id: row.id,
    date: iso(row.date_local),
    date_gmt: isoGmt(row.date_gmt, row.date_local, site.timezone),
    guid: { rendered: guidOf(site, kind, row, link) },
    modified: iso(row.modified_local),
    modified_gmt: isoGmt(row.modified_gmt, row.modified_local, site.timezone),
    // WordPress names drafts and pending posts only when they are published.
    slug: isFloating(row.status) ? '' : row.slug,
    status: row.status,
    type: POST_TYPES[kind],
    link,
    title: { rendered: renderTitle(row.title) },
    content: { rendered: contentRendered(row.content), protected: row.password !== '' },
    excerpt: { rendered: contentRendered(row.excerpt), protected: row.password !== '' },
    author: row.author,
    featured_media: thumbnailId ?? 0,
    template: '',
  };
}

/** `the_content` output: wpautop'd with its trailing newline, empty stays empty. */
const contentRendered = (text: string): string => (text === '' ? '' : `${renderContent(text)}\n`);
