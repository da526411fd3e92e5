import { timingSafeEqual } from 'node:crypto';
import type { RequestContext } from '../http/route.ts';
import { canModify, type OwnedPost } from './status.ts';

/** A post with a viewing password (WordPress `post_password`; set with `events protect`). */
export interface ProtectablePost extends OwnedPost {
  password: string;
}

export const isProtected = (post: ProtectablePost): boolean => post.password !== '';

/**
 * Whether this request may see a protected post whole (compat §1.3/§1.4): it sent the right `password`, or asked
 * for `context=edit` and may edit the post.
 */
export function unlocks(ctx: RequestContext, post: ProtectablePost): boolean {
  const sent = ctx.query.password;
  if (typeof sent === 'string' && sent !== '') {
    const a = Buffer.from(sent);
    const b = Buffer.from(post.password);
    if (a.length === b.length && timingSafeEqual(a, b)) return true;
  }
  return ctx.query.context === 'edit' && canModify(ctx.caller, post, 'edit');
}

/**
 * An event as lists show it while protected: title, dates and status stay, the rest is emptied (compat §1.3);
 * `fields` are the blanked values of the event's own fields (event/fields.ts).
 */
export function blankEvent(
  body: Record<string, unknown>,
  fields: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ...body,
    description: '',
    excerpt: '',
    cost: '',
    image: false,
    all_day: null,
    sticky: null,
    ...fields,
    cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
    categories: [],
    tags: [],
    venue: [],
    organizer: [],
    custom_fields: [],
  };
  delete out.json_ld;
  return out;
}

const VENUE_BLANKED = [
  'description',
  'excerpt',
  'address',
  'city',
  'country',
  'province',
  'stateprovince',
  'zip',
  'phone',
  'website',
];
const ORGANIZER_BLANKED = ['description', 'excerpt', 'phone', 'website', 'email'];

/**
 * A venue or organizer while protected (compat §1.4/§1.5): the listed fields emptied, the map flags null and the
 * name field `[]` (the plugin's key collision, which clients may rely on). The plugin still sends the image,
 * coordinates and JSON-LD, which give the place away; we drop them (a §9 leak, fixed as the design doc asks).
 */
export function blankLinked(kind: 'venue' | 'organizer', body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const k of kind === 'venue' ? VENUE_BLANKED : ORGANIZER_BLANKED) out[k] = '';
  out[kind] = [];
  if (kind === 'venue') {
    out.show_map = null;
    out.show_map_link = null;
    delete out.geo_lat;
    delete out.geo_lng;
  }
  delete out.image;
  delete out.json_ld;
  return out;
}

/** A venue or organizer body as every reader sees it outside its own unlocked single GET: blanked while protected. */
export const shownLinked = (
  kind: 'venue' | 'organizer',
  post: ProtectablePost,
  body: Record<string, unknown>,
): Record<string, unknown> => (isProtected(post) ? blankLinked(kind, body) : body);
