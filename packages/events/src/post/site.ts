import type { Config } from '../config/index.ts';
import { hasUglyPermalink } from './dates.ts';

export const NAMESPACE = 'tribe/events/v1';

export type PostKind = 'event' | 'venue' | 'organizer';
const POST_TYPES: Record<PostKind, string> = {
  event: 'tribe_events',
  venue: 'tribe_venue',
  organizer: 'tribe_organizer',
};

/** What a permalink depends on. */
export interface LinkablePost {
  readonly id: number;
  readonly slug: string;
  readonly status: string;
}

/** URLs and identifiers derived from the site's home URL, as WordPress builds them with pretty permalinks. */
export interface Site {
  readonly home: string;
  /** `{home}/wp-json/` */
  readonly restRoot: string;
  /** `{home}/wp-json/tribe/events/v1` */
  readonly rest: string;
  readonly timezone: string;
  readonly currencySymbol: string;
  readonly currencyPosition: 'prefix' | 'postfix';
  /** ISO 4217 code of the site currency (`offers.priceCurrency` in JSON-LD). */
  readonly currencyCode: string;
  readonly geolocRadiusKm: number;
  readonly siteName: string;
  /** The pretty permalink, or `?post_type=…&p=ID` for posts not public yet (drafts, pending, scheduled). */
  permalink(kind: PostKind, post: LinkablePost): string;
  globalId(id: number): string;
}

export function createSite(config: Config): Site {
  const home = config.siteUrl.replace(/\/+$/, '');
  const url = new URL(home);
  // The plugin's global id is host + path of home, without scheme or port.
  const globalBase = `${url.hostname}${url.pathname === '/' ? '' : url.pathname}`;
  return Object.freeze({
    home,
    restRoot: `${home}/wp-json/`,
    rest: `${home}/wp-json/${NAMESPACE}`,
    timezone: config.timezone,
    currencySymbol: config.currencySymbol,
    currencyPosition: config.currencyPosition,
    currencyCode: config.currencyCode,
    geolocRadiusKm: config.geolocRadiusKm,
    siteName: config.siteName,
    permalink: (kind: PostKind, post: LinkablePost) =>
      hasUglyPermalink(post.status)
        ? `${home}/?post_type=${POST_TYPES[kind]}&p=${post.id}`
        : `${home}/${kind}/${post.slug}/`,
    globalId: (id: number) => `${globalBase}?id=${id}`,
  });
}
