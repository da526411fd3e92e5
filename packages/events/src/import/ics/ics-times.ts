import type ICAL from 'ical.js';
import {
  formatWall,
  isValidZone,
  makeWall,
  utcToWall,
  wallFromEpoch,
  wallToEpoch,
  wallToUtc,
} from '../../time/index.ts';
import type { Wall } from '../../time/index.ts';
import { ItemRefused } from './ics-error.ts';

/** A DATE-TIME or DATE of a feed: its wall time and the zone it is read in (null: floating, or a DATE). */
export interface FeedTime {
  readonly wall: Wall;
  readonly zone: string | null;
  readonly date: boolean;
}

/**
 * The zone a TZID names: an IANA name (or WordPress's `UTC+5`) as is; a vendor-prefixed IANA name
 * (`/mozilla.org/20050126_1/America/New_York`) by its tail; otherwise the feed's own VTIMEZONE, whose offsets turn
 * the time into UTC (Outlook's `Eastern Standard Time`). Undefined when neither knows it.
 */
export function ianaZoneOf(tzid: string): string | undefined {
  if (isValidZone(tzid)) return tzid;
  const parts = tzid.split('/').filter(Boolean);
  for (const n of [3, 2]) {
    const tail = parts.slice(-n).join('/');
    if (parts.length > n && isValidZone(tail) && tail.includes('/')) return tail;
  }
  return undefined;
}

const isUtc = (t: ICAL.Time): boolean => t.zone?.tzid === 'UTC' || t.toString().endsWith('Z');

/** Reads one value of a time property (DTSTART, DTEND, EXDATE, RDATE, RECURRENCE-ID) with its TZID parameter. */
export function readTime(t: ICAL.Time, tzid: string | undefined, zones: ReadonlyMap<string, ICAL.Timezone>): FeedTime {
  const wall = makeWall(t.year, t.month, t.day, t.hour, t.minute, t.second);
  if (t.isDate) return { wall, zone: null, date: true };
  if (tzid === undefined) return { wall, zone: isUtc(t) ? 'UTC' : null, date: false };
  const iana = ianaZoneOf(tzid);
  if (iana !== undefined) return { wall, zone: iana, date: false };
  const tz = zones.get(tzid);
  if (tz === undefined) throw new ItemRefused(`TZID "${tzid}" is neither an IANA zone nor defined by a VTIMEZONE`);
  return { wall: wallFromEpoch(wallToEpoch(wall) - tz.utcOffset(t) * 1000), zone: 'UTC', date: false };
}

/** The wall time of `t` in `zone` (null: the site zone `site`); a floating time is read in that zone as it is. */
export function wallIn(t: FeedTime, zone: string | null, site: string): Wall {
  if (t.zone === null || t.zone === zone) return t.wall;
  return utcToWall(wallToUtc(t.wall, t.zone), zone ?? site);
}

const compact = (w: Wall) => formatWall(w).replace(/[-:]/g, '').replace(' ', 'T');

/**
 * An EXDATE or RDATE value as the REST `recurrence` takes it: `YYYYMMDD` for a DATE, else the wall time in the
 * series' zone (`YYYYMMDDTHHMMSS`; null: the site zone).
 */
export function recurrenceDate(t: FeedTime, seriesZone: string | null, site: string): string {
  return t.date ? compact(t.wall).slice(0, 8) : compact(wallIn(t, seriesZone, site));
}

export { formatWall };
