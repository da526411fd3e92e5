// VTIMEZONE blocks (RFC 5545 §3.6.5) generated from the IANA data the runtime's Intl carries: every offset change in
// the calendar years a feed's events span, one observance per change (no RRULE to get wrong), so a client needs no
// zone database of its own. Fixed WordPress offsets (`UTC+5`) get a single observance.
import { offsetMinutes, zoneAbbr } from '../time/index.ts';
import { escapeText } from './content-line.ts';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** An offset change: `at` (UTC ms) is the first instant of the new offset. */
interface Transition { readonly at: number; readonly from: number; readonly to: number }

const yearTransitions = new Map<string, readonly Transition[]>();

/** The changes of one UTC calendar year, found by a day-by-day scan and a bisection to the minute; cached. */
function transitionsIn(zone: string, year: number): readonly Transition[] {
  const key = `${zone}|${year}`;
  const known = yearTransitions.get(key);
  if (known !== undefined) return known;
  const out: Transition[] = [];
  const end = Date.UTC(year + 1, 0, 1);
  let t = Date.UTC(year, 0, 1);
  let off = offsetMinutes(zone, t);
  while (t < end) {
    const next = Math.min(t + DAY_MS, end);
    const nextOff = offsetMinutes(zone, next);
    if (nextOff !== off) {
      let lo = t;
      let hi = next;
      while (hi - lo > MINUTE_MS) {
        const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
        if (offsetMinutes(zone, mid) === off) lo = mid; else hi = mid;
      }
      out.push({ at: hi, from: off, to: nextOff });
      off = nextOff;
    }
    t = next;
  }
  yearTransitions.set(key, out);
  return out;
}

/** `+0530`, `-0330` (minutes east of UTC). */
function utcOffset(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

/** The local wall time of `utcMs` under `offset` as a DATE-TIME without zone. */
function localStamp(utcMs: number, offset: number): string {
  const d = new Date(utcMs + offset * MINUTE_MS);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getUTCFullYear(), 4)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}T${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/** The smaller of the year's January and July offsets: what "standard" time is in that year. */
const standardOffset = (zone: string, atMs: number): number => {
  const y = new Date(atMs).getUTCFullYear();
  return Math.min(offsetMinutes(zone, Date.UTC(y, 0, 1)), offsetMinutes(zone, Date.UTC(y, 6, 1)));
};

function observance(zone: string, startUtc: number, from: number, to: number): string[] {
  const kind = to > standardOffset(zone, startUtc) ? 'DAYLIGHT' : 'STANDARD';
  return [
    `BEGIN:${kind}`, `DTSTART:${localStamp(startUtc, from)}`, `TZOFFSETFROM:${utcOffset(from)}`, `TZOFFSETTO:${utcOffset(to)}`,
    `TZNAME:${escapeText(zoneAbbr(zone, startUtc, to))}`, `END:${kind}`,
  ];
}

/**
 * The VTIMEZONE of `zone` (its id as `tzid`) valid from the start of the UTC year of `fromMs` to the end of that of
 * `toMs`: the offset in force on that first 1 January (dated 1970), then every change up to the end.
 * @example vtimezoneLines('Europe/Paris', 'Europe/Paris', Date.UTC(2032, 0, 1), Date.UTC(2032, 11, 1)) // 3 observances
 */
export function vtimezoneLines(zone: string, tzid: string, fromMs: number, toMs: number): string[] {
  const first = new Date(fromMs).getUTCFullYear();
  const last = new Date(toMs).getUTCFullYear();
  const start = Date.UTC(first, 0, 1);
  const initial = offsetMinutes(zone, start);
  // The offset in force at the range's start, dated 1970 as clients expect an observance to begin before any
  // time they resolve (ical.js applies none to a time at or before the first onset).
  const lines = ['BEGIN:VTIMEZONE', `TZID:${tzid}`, ...observance(zone, start, initial, initial).map((l) => (l.startsWith('DTSTART:') ? 'DTSTART:19700101T000000' : l))];
  for (let y = first; y <= last; y++) {
    for (const t of transitionsIn(zone, y)) lines.push(...observance(zone, t.at, t.from, t.to));
  }
  lines.push('END:VTIMEZONE');
  return lines;
}
