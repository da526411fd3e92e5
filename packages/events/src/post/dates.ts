import { formatWall, isStorableInstant, parseDateTime, parseWall, utcToWall, wallToUtc } from '../time/index.ts';
import { invalidParam } from '../http/errors.ts';
import { OUT_OF_RANGE_DATE } from './validators.ts';

export interface PostDates {
  date_local: string;
  date_gmt: string;
}

/** Post date from `date` (site time) or `date_utc` (UTC), else now; `date_utc` wins when both are sent. */
export function postDates(siteZone: string, now: number, date?: string | number, dateUtc?: string | number): PostDates {
  let ms = now;
  if (dateUtc !== undefined) ms = storable(parseDateTime(dateUtc, 'UTC', now) ?? now, siteZone, 'date_utc');
  else if (date !== undefined) ms = storable(parseDateTime(date, siteZone, now) ?? now, siteZone, 'date');
  return { date_local: formatWall(utcToWall(ms, siteZone)), date_gmt: formatWall(utcToWall(ms, 'UTC')) };
}

export function modifiedNow(siteZone: string, now: number): { modified_local: string; modified_gmt: string } {
  return { modified_local: formatWall(utcToWall(now, siteZone)), modified_gmt: formatWall(utcToWall(now, 'UTC')) };
}

/** The validators read dates against the real clock in UTC; this checks the instant actually written. */
function storable(ms: number, siteZone: string, name: string): number {
  if (!isStorableInstant(ms, siteZone)) throw invalidParam(name, OUT_OF_RANGE_DATE);
  return ms;
}

/** WordPress's "no GMT date yet": drafts and pending posts float until they are published. */
export const ZERO_DATE = '0000-00-00 00:00:00';
const FLOATING_STATUSES: ReadonlySet<string> = new Set(['draft', 'pending', 'auto-draft']);

export type PostTimes = PostDates & { modified_local: string; modified_gmt: string };

/**
 * The dates `wp_insert_post` stores for a new post: a floating status without an explicit `date_utc` gets the zero GMT
 * date, and the modification dates are the post dates (so a post created with `date` shows it as `modified` too).
 */
export function insertedPostTimes(
  siteZone: string,
  now: number,
  status: string,
  date?: string | number,
  dateUtc?: string | number,
): PostTimes {
  const d = postDates(siteZone, now, date, dateUtc);
  const gmt = FLOATING_STATUSES.has(status) && dateUtc === undefined ? ZERO_DATE : d.date_gmt;
  return { date_local: d.date_local, date_gmt: gmt, modified_local: d.date_local, modified_gmt: gmt };
}

/**
 * The post dates an update sets, if any: publishing a post that never had a GMT date dates it now (WordPress clears
 * the floating date, whatever `date` says); otherwise a sent `date`/`date_utc` as on create.
 */
export function updatedPostDates(
  siteZone: string,
  now: number,
  old: { status: string; date_gmt: string },
  newStatus: string,
  date?: string | number,
  dateUtc?: string | number,
): PostDates | undefined {
  if (old.date_gmt === ZERO_DATE && !FLOATING_STATUSES.has(newStatus)) return postDates(siteZone, now);
  if (date === undefined && dateUtc === undefined) return undefined;
  const d = postDates(siteZone, now, date, dateUtc);
  return FLOATING_STATUSES.has(newStatus) && dateUtc === undefined ? { ...d, date_gmt: ZERO_DATE } : d;
}

/** Whether the plugin links the post by `?post_type=…&p=ID` (not public: not yet, or trashed) rather than by its slug. */
export const hasUglyPermalink = (status: string): boolean =>
  FLOATING_STATUSES.has(status) || status === 'future' || status === 'trash';
/** Whether an event shows an empty slug: WordPress names drafts and pending posts only when they are published. */
export const isFloating = (status: string): boolean => FLOATING_STATUSES.has(status);

/**
 * What trashing changes of a floating post's dates: trash does not float, so a zero GMT date is computed from the
 * local one (as `wp_insert_post` does for any status but draft and pending).
 */
export function trashedPostDates(siteZone: string, row: { date_local: string; date_gmt: string }): Partial<PostDates> {
  if (row.date_gmt !== ZERO_DATE) return {};
  return { date_gmt: formatWall(utcToWall(wallToUtc(parseWall(row.date_local), siteZone), 'UTC')) };
}
