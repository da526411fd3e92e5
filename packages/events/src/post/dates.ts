import { formatWall, parseDateTime, utcToWall } from '../time/index.ts';

export interface PostDates { date_local: string; date_gmt: string }

/** Post date from `date` (site time) or `date_utc` (UTC), else now; `date_utc` wins when both are sent. */
export function postDates(siteZone: string, now: number, date?: string | number, dateUtc?: string | number): PostDates {
  let ms = now;
  if (dateUtc !== undefined) ms = parseDateTime(dateUtc, 'UTC', now) ?? now;
  else if (date !== undefined) ms = parseDateTime(date, siteZone, now) ?? now;
  return { date_local: formatWall(utcToWall(ms, siteZone)), date_gmt: formatWall(utcToWall(ms, 'UTC')) };
}

export function modifiedNow(siteZone: string, now: number): { modified_local: string; modified_gmt: string } {
  return { modified_local: formatWall(utcToWall(now, siteZone)), modified_gmt: formatWall(utcToWall(now, 'UTC')) };
}
