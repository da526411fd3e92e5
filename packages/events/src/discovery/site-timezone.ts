import { offsetMinutes } from '../time/index.ts';

/** WordPress's manual offsets (`UTC+5`, `UTC-3:30`): stored as `gmt_offset` with an empty `timezone_string`. */
const MANUAL_OFFSET = /^UTC[+-]/;

/** The site's `timezone_string` and `gmt_offset` options as WordPress reports them. */
export interface SiteTimezone {
  readonly timezoneString: string;
  /**
   * A number (hours, two decimals) when the site has a named zone, as `wp_timezone_override_offset` computes it at
   * the request instant; the stored option, a string such as `"5.5"`, for a manual offset.
   */
  readonly gmtOffset: number | string;
}

/**
 * @example siteTimezone('Europe/Paris', Date.UTC(2026, 6, 1)) // { timezoneString: 'Europe/Paris', gmtOffset: 2 }
 * @example siteTimezone('UTC+5:30', now) // { timezoneString: '', gmtOffset: '5.5' }
 */
export function siteTimezone(zone: string, now: number): SiteTimezone {
  const hours = offsetMinutes(zone, now) / 60;
  if (MANUAL_OFFSET.test(zone)) return { timezoneString: '', gmtOffset: String(hours) };
  return { timezoneString: zone, gmtOffset: Math.round(hours * 100) / 100 };
}
