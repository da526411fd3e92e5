import { type Wall, makeWall, wallToEpoch } from './wall.ts';
import { utcToWall, wallToUtc } from './zone.ts';
import { newParsed, parseTokens, type Parsed } from './strtotime.grammar.ts';

// PHP 8.2's strtotime() for the relative and absolute formats clients send (no dependency ships a zone-aware port):
// the grammar in strtotime.grammar.ts fills a parse state, and resolve() applies it to "now" in timelib's order
// (fill the holes, `first x of` months, weekday, relative amounts, first/last day of, then the zone). Checked form
// by form against recorded PHP answers (test/fixtures/strtotime).

/** timelib_fill_holes: unset fields come from now; a date without a time is midnight. */
function fill(p: Parsed, now: Wall): { y: number; m: number; d: number; h: number; i: number; s: number } {
  const midnight = p.haveDate && !p.haveTime;
  return {
    y: p.y ?? now.y,
    m: p.m ?? now.mo,
    d: p.d ?? now.d,
    h: midnight ? 0 : (p.h ?? now.h),
    i: midnight ? 0 : (p.i ?? now.mi),
    s: midnight ? 0 : (p.s ?? now.s),
  };
}

/** timelib's do_adjust_for_weekday, on a normalised day. */
function weekdayShift(day: Wall, weekday: NonNullable<Parsed['weekday']>, relDays: number): number {
  const current = new Date(wallToEpoch(day)).getUTCDay();
  let target = weekday.day;
  // Only `ago` makes a weekday negative: the same weekday counted back from today.
  if (target < 0) return -(7 - (-target - current));
  if (weekday.behavior === 2) {
    // "this week" runs Monday to Sunday: on a Sunday, other days are in the week before; Sunday is day 7.
    if (current === 0 && target !== 0) target -= 7;
    if (target === 0 && current !== 0) target = 7;
    return target - current;
  }
  let difference = target - current;
  if ((relDays < 0 && difference < 0) || (relDays >= 0 && difference <= -weekday.behavior)) difference += 7;
  return difference;
}

/** timelib_update_ts without the zone: the wall time the parse state names, relative to `now`. */
function resolve(p: Parsed, now: Wall): Wall {
  const t = fill(p, now);
  const rel = { ...p.rel };
  // `last day of feb` must not overflow from today's day of the month first (timelib does this twice too).
  if (p.firstLastDayOf === 'first') t.d = 1;
  if (p.firstLastDayOf === 'last') {
    t.d = 0;
    t.m += 1;
  }
  if (p.special && p.special.type !== 'weekdays') {
    // `first thursday of next month` counts from the 1st of that month, `last … of` back from the next month's 1st.
    t.d = 1;
    t.m += rel.m + (p.special.type === 'last-weekday-of' ? 1 : 0);
    rel.m = 0;
  }
  let day = makeWall(t.y, t.m, t.d);
  if (p.weekday) day = makeWall(day.y, day.mo, day.d + weekdayShift(day, p.weekday, rel.d));
  // Relative amounts are wall-clock arithmetic, as PHP does (`+24 hours` over a DST change keeps the clock time).
  let y = day.y + rel.y;
  let m = day.mo + rel.m;
  let d = day.d + rel.d;
  if (p.firstLastDayOf === 'first') d = 1;
  if (p.firstLastDayOf === 'last') {
    d = 0;
    m += 1;
  }
  // Months first (so day 0 is the last of the month before), then days and the clock, as timelib_do_normalize.
  const month = makeWall(y, m, 1);
  y = month.y;
  m = month.mo;
  const wall = makeWall(y, m, d, t.h + rel.h, t.i + rel.i, t.s + rel.s);
  return p.special?.type === 'weekdays' ? addBusinessDays(wall, p.special.amount) : wall;
}

/** timelib's do_adjust_special_weekday: whole weeks first, then the rest, stepping over Saturday and Sunday. */
function addBusinessDays(w: Wall, count: number): Wall {
  const dow = new Date(wallToEpoch(w)).getUTCDay();
  let d = w.d + Math.trunc(count / 5) * 7;
  const rem = count % 5;
  if (count > 0) {
    if (rem === 0) d -= dow === 0 ? 2 : dow === 6 ? 1 : 0;
    else if (dow === 6) d += 1;
    else if (dow + rem > 5) d += 2;
  } else if (rem === 0) {
    // Zero and whole weeks backwards from a weekend land on the Monday after, as going forwards would.
    d += dow === 6 ? 2 : dow === 0 ? 1 : 0;
  } else if (dow === 0) d -= 1;
  else if (dow + rem < 1) d -= 2;
  return makeWall(w.y, w.mo, d + rem, w.h, w.mi, w.s);
}

/**
 * Parses what PHP's `strtotime()` would, relative to `nowMs`, reading zone-less input as wall time in `zone`.
 * Returns the instant in epoch milliseconds, or undefined when PHP would return false.
 * @example parseDateTime('first thursday of next month 6:30pm', 'America/New_York', Date.now())
 */
export function parseDateTime(input: string | number, zone: string, nowMs: number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) ? Math.trunc(input) * 1000 : undefined;
  const text = input.trim().toLowerCase();
  if (text === '') return undefined;
  // Numeric strings are Unix timestamps, as the plugin's is_time() checks is_numeric() first.
  if (/^-?\d+(\.\d+)?$/.test(text)) return Math.trunc(Number(text)) * 1000;
  const ts = /^@(-?\d+)$/.exec(text);
  if (ts) return Number(ts[1]) * 1000;

  const parsed = newParsed();
  if (!parseTokens(text, parsed)) return undefined;
  const wall = resolve(parsed, utcToWall(nowMs, zone));
  if (wall.y < 1 || wall.y > 9999) return undefined;
  return parsed.offset !== undefined ? wallToEpoch(wall) - parsed.offset * 1000 : wallToUtc(wall, zone);
}
