import { formatWall, parseWall, wallToEpoch, type Wall } from './wall.ts';
import { utcToWall } from './zone.ts';

/**
 * The date-times the service stores: MySQL DATETIME's documented range, which WordPress and the plugin write into.
 * PHP itself goes further (and MySQL accepts years 0001–0999 without supporting them), but a date outside this range
 * could not be stored by the plugin either, and JavaScript's Date ends at ±275,760 years.
 */
export const STORABLE_RANGE = Object.freeze({ min: '1000-01-01 00:00:00', max: '9999-12-31 23:59:59' });

const DAY_MS = 86_400_000;
const MIN_MS = Date.UTC(1000, 0, 1);
const MAX_MS = Date.UTC(9999, 11, 31, 23, 59, 59);

const inRange = (text: string): boolean => text >= STORABLE_RANGE.min && text <= STORABLE_RANGE.max;

/**
 * True when the instant (a parse result: epoch ms, maybe NaN) and its wall time in `zone` are both storable.
 * @example isStorableInstant(parseDateTime('+99999999999 years', zone, now), zone) // false
 */
export function isStorableInstant(ms: number | undefined, zone: string): ms is number {
  // A day of margin covers every zone offset; beyond it Intl would throw on the invalid Date.
  if (ms === undefined || !Number.isFinite(ms) || ms < MIN_MS - DAY_MS || ms > MAX_MS + DAY_MS) return false;
  const storableYear = (w: Wall) => w.y >= 1000 && w.y <= 9999;
  return storableYear(utcToWall(ms, 'UTC')) && storableYear(utcToWall(ms, zone));
}

/**
 * A stored `YYYY-MM-DD HH:MM:SS` as a wall time, or undefined when it is not one a write could have made (a real
 * calendar date in the storable range). Rows written by other tools or older versions are read through this.
 */
export function readStoredWall(text: string | null | undefined): Wall | undefined {
  if (typeof text !== 'string' || !inRange(text)) return undefined;
  let wall: Wall;
  try {
    wall = parseWall(text);
  } catch {
    return undefined;
  }
  const ms = wallToEpoch(wall);
  return Number.isFinite(ms) && formatWall(utcToWall(ms, 'UTC')) === text ? wall : undefined;
}

/**
 * A stored date-time as bodies show it: itself when `readStoredWall` accepts it, else `""` (never a broken value).
 * WordPress's zero date (a draft's `date_utc`: not dated yet) is a value of its own and shows as it is.
 */
export const shownStoredDate = (text: string): string =>
  text === '0000-00-00 00:00:00' || readStoredWall(text) ? text : '';
