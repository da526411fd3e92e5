import { formatWall, isStorableInstant, parseDateTime, utcToWall } from '../time/index.ts';
import { invalidParam } from '../http/errors.ts';
import { OUT_OF_RANGE_DATE } from './validators.ts';

export interface PostDates { date_local: string; date_gmt: string }

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
