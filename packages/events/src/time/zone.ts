import { abbrForOffset } from './tzif.ts';
import { type Wall, wallFromEpoch, wallToEpoch } from './wall.ts';

// `UTC+5`, `UTC-3:30`, `UTC+2.5`: the manual offsets WordPress offers besides IANA zones.
const FIXED_RE = /^UTC([+-])(\d{1,2})(?:(?::(\d{2}))|(?:\.(\d+)))?$/;
const formatters = new Map<string, Intl.DateTimeFormat>();
const abbrFormatters = new Map<string, Intl.DateTimeFormat>();
const canonicalNames = new Map<string, string>();
const DAY_MS = 86_400_000;

function fixedOffsetMinutes(zone: string): number | undefined {
  if (zone === 'UTC' || zone === 'GMT') return 0;
  const m = FIXED_RE.exec(zone);
  if (!m) return undefined;
  const hours = Number(m[2]);
  const minutes = m[3] !== undefined ? Number(m[3]) : m[4] !== undefined ? Math.round(Number(`0.${m[4]}`) * 60) : 0;
  if (hours > 14 || minutes >= 60) return undefined;
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** True for IANA zones the runtime knows and for WordPress manual offsets (`UTC+5`). */
export function isValidZone(zone: string): boolean {
  if (fixedOffsetMinutes(zone) !== undefined) return true;
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** Offset of `zone` from UTC in minutes at the instant `utcMs`. */
export function offsetMinutes(zone: string, utcMs: number): number {
  const fixed = fixedOffsetMinutes(zone);
  if (fixed !== undefined) return fixed;
  const parts = formatter(zone).formatToParts(new Date(utcMs));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60_000);
}

export function utcToWall(utcMs: number, zone: string): Wall {
  return wallFromEpoch(utcMs + offsetMinutes(zone, utcMs) * 60_000);
}

/**
 * The instant a wall time denotes in `zone`, resolved as PHP does: in a DST gap the offset from before the change
 * applies (02:30 on a spring-forward night is 03:30 in the new offset); in a repeated hour, the first occurrence.
 */
export function wallToUtc(w: Wall, zone: string): number {
  const naive = wallToEpoch(w);
  const before = offsetMinutes(zone, naive - DAY_MS);
  const after = offsetMinutes(zone, naive + DAY_MS);
  // The same offset a day before and after: no change in between (zones change at most twice a year).
  if (before === after) return naive - before * 60_000;
  const earlier = naive - before * 60_000;
  if (offsetMinutes(zone, earlier) === before) return earlier;
  const later = naive - after * 60_000;
  return offsetMinutes(zone, later) === after ? later : earlier;
}

/** The IANA spelling of a zone name the runtime accepts in any case (`europe/paris` → `Europe/Paris`). */
export function canonicalZone(zone: string): string {
  let c = canonicalNames.get(zone);
  if (c === undefined) {
    c = formatter(zone).resolvedOptions().timeZone;
    canonicalNames.set(zone, c);
  }
  return c;
}

/**
 * The zone abbreviation PHP prints (`EST`, `AEDT`, `CEST`, `IST`, `+0545`), from the IANA database; a manual offset
 * is its own name (`UTC+5`). Without a zoneinfo file for the zone, the runtime's `GMT+1` style. `offset` (minutes
 * east of UTC at `utcMs`) spares the runtime lookup when the caller knows it, as a stored local/UTC pair does.
 */
export function zoneAbbr(zone: string, utcMs: number, offset?: number): string {
  if (fixedOffsetMinutes(zone) !== undefined) return zone;
  const named = abbrForOffset(canonicalZone(zone), offset ?? offsetMinutes(zone, utcMs));
  if (named !== undefined) return named;
  let f = abbrFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' });
    abbrFormatters.set(zone, f);
  }
  const parts = f.formatToParts(new Date(utcMs));
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? zone;
}

/** ISO 8601 with offset, for schema.org `startDate`; `offset` (minutes east of UTC) when the caller knows it. */
export function isoWithOffset(w: Wall, zone: string, offset?: number): string {
  const off = offset ?? offsetMinutes(zone, wallToUtc(w, zone));
  const sign = off < 0 ? '-' : '+';
  const abs = Math.abs(off);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${String(w.y).padStart(4, '0')}-${p(w.mo)}-${p(w.d)}T${p(w.h)}:${p(w.mi)}:${p(w.s)}${sign}${p(Math.floor(abs / 60))}:${p(abs % 60)}`;
}
