import type { Config } from '../config/index.ts';

export const NAMESPACE = 'tribe/events/v1';

export type PostKind = 'event' | 'venue' | 'organizer';

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
  readonly geolocRadiusKm: number;
  readonly siteName: string;
  permalink(kind: PostKind, slug: string): string;
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
    geolocRadiusKm: config.geolocRadiusKm,
    siteName: config.siteName,
    permalink: (kind: PostKind, slug: string) => `${home}/${kind}/${slug}/`,
    globalId: (id: number) => `${globalBase}?id=${id}`,
  });
}
