import type { Site } from '../post/index.ts';
import { siteTimezone } from '../discovery/index.ts';

/**
 * WordPress options this service has no setting for: it reports the values of a fresh WordPress install in English
 * (the reference site of the conformance kits has them too), so clients reading them see a plain WordPress site.
 */
export const FRESH_INSTALL_OPTIONS = Object.freeze({
  date_format: 'F j, Y',
  time_format: 'g:i a',
  start_of_week: 1,
  language: 'en_US',
  use_smilies: true,
  default_category: 1,
  default_post_format: '0',
  posts_per_page: 10,
  show_on_front: 'posts',
  page_on_front: 0,
  page_for_posts: 0,
  default_ping_status: 'open',
  default_comment_status: 'open',
});

/** The site-wide values `/wp-json/` and `/wp/v2/settings` report from our configuration. */
export interface SiteOptions {
  readonly site: Site;
  /** The tagline (`blogdescription`), `EVENTS_SITE_DESCRIPTION`. */
  readonly tagline: string;
  /** `admin_email`: `EVENTS_ADMIN_EMAIL`, else the e-mail of the first administrator, as WordPress's installer sets it. */
  adminEmail(): Promise<string>;
}

export const timezoneOf = (site: Site, now: number) => siteTimezone(site.timezone, now);
