import { type Wall, makeWall, wallToEpoch } from './wall.ts';
import { utcToWall, wallToUtc } from './zone.ts';

// A hand-written subset of PHP's strtotime(): the forms the plugin's tests and clients use (ISO and MySQL dates,
// timestamps, `tomorrow 9am`, `next wednesday 4pm`, `+5 days 11am`, month names). No dependency ships a
// zone-aware port, and the full PHP grammar would be far larger than what clients send.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MONTH_RE = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const DAY_RE = '(sun(?:day)?|mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?)';
const UNIT_RE = '(sec(?:ond)?s?|min(?:ute)?s?|hours?|days?|weeks?|fortnights?|months?|years?)';

interface State {
  date?: { y: number; mo: number; d: number };
  time?: { h: number; mi: number; s: number };
  rel: { y: number; mo: number; d: number; h: number; mi: number; s: number };
  weekday?: { dow: number; mode: 'this' | 'next' | 'last' };
  offsetMin?: number;
  resetTime: boolean;
}

type Rule = [RegExp, (m: RegExpExecArray, st: State, now: Wall) => boolean];

function addUnit(st: State, unit: string, n: number): void {
  const u = unit.slice(0, 3);
  if (u === 'sec') st.rel.s += n;
  else if (u === 'min') st.rel.mi += n;
  else if (u === 'hou') st.rel.h += n;
  else if (u === 'day') st.rel.d += n;
  else if (u === 'wee') st.rel.d += 7 * n;
  else if (u === 'for') st.rel.d += 14 * n;
  else if (u === 'mon') st.rel.mo += n;
  else st.rel.y += n;
}

function hour12(h: number, ampm: string | undefined): number | undefined {
  if (!ampm) return h <= 24 ? h % 24 : undefined;
  if (h < 1 || h > 12) return undefined;
  const pm = ampm.startsWith('p');
  return (h % 12) + (pm ? 12 : 0);
}

const setDate = (st: State, y: number, mo: number, d: number): boolean => {
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return false;
  st.date = { y, mo, d };
  st.resetTime = true;
  return true;
};

const RULES: Rule[] = [
  [/^(\d{4})-(\d{1,2})-(\d{1,2})(?=$|[\st,])/, (m, st) => setDate(st, +m[1]!, +m[2]!, +m[3]!)],
  [/^(\d{4})\/(\d{1,2})\/(\d{1,2})(?=$|\s|,)/, (m, st) => setDate(st, +m[1]!, +m[2]!, +m[3]!)],
  [/^(\d{1,2})\/(\d{1,2})\/(\d{4})(?=$|\s|,)/, (m, st) => setDate(st, +m[3]!, +m[1]!, +m[2]!)],
  [/^(\d{1,2})[-.](\d{1,2})[-.](\d{4})(?=$|\s|,)/, (m, st) => setDate(st, +m[3]!, +m[2]!, +m[1]!)],
  [new RegExp(`^${MONTH_RE}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?(?=$|\\s|,)`), (m, st, now) =>
    setDate(st, m[3] ? +m[3] : now.y, MONTHS.indexOf(m[1]!.slice(0, 3)) + 1, +m[2]!)],
  [new RegExp(`^(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH_RE}\\.?(?:,?\\s+(\\d{4}))?(?=$|\\s|,)`), (m, st, now) =>
    setDate(st, m[3] ? +m[3] : now.y, MONTHS.indexOf(m[2]!.slice(0, 3)) + 1, +m[1]!)],
  [/^t?(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?\s*([ap])\.?m\.?(?=$|[\s,+-]|z)/, (m, st) => {
    const h = hour12(+m[1]!, m[4]);
    if (h === undefined || +m[2]! > 59 || +(m[3] ?? 0) > 59) return false;
    st.time = { h, mi: +m[2]!, s: +(m[3] ?? 0) };
    return true;
  }],
  [/^t?(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?=$|[\s,+-]|z)/, (m, st) => {
    const h = +m[1]!;
    if (h > 24 || +m[2]! > 59 || +(m[3] ?? 0) > 60) return false;
    st.time = { h: h % 24, mi: +m[2]!, s: +(m[3] ?? 0) };
    return true;
  }],
  [/^(\d{1,2})\s*([ap])\.?m\.?(?=$|\s|,)/, (m, st) => {
    const h = hour12(+m[1]!, m[2]);
    if (h === undefined) return false;
    st.time = { h, mi: 0, s: 0 };
    return true;
  }],
  [/^(?:z|utc|gmt)(?=$|\s)/, (_m, st) => { st.offsetMin = 0; return true; }],
  [/^([+-])(\d{2}):?(\d{2})(?=$|\s)/, (m, st) => {
    if (!st.time) return false;
    st.offsetMin = (m[1] === '-' ? -1 : 1) * (+m[2]! * 60 + +m[3]!);
    return true;
  }],
  [new RegExp(`^([+-]?\\d+)\\s*${UNIT_RE}(?=$|\\s|,)`), (m, st) => { addUnit(st, m[2]!, +m[1]!); return true; }],
  [new RegExp(`^(next|last|previous|this)\\s+${UNIT_RE}(?=$|\\s|,)`), (m, st) => {
    addUnit(st, m[2]!, m[1] === 'next' ? 1 : m[1] === 'this' ? 0 : -1);
    return true;
  }],
  [new RegExp(`^(?:(next|last|previous|this)\\s+)?${DAY_RE}(?=$|\\s|,)`), (m, st) => {
    const mode = m[1] === 'next' ? 'next' : m[1] === 'last' || m[1] === 'previous' ? 'last' : 'this';
    st.weekday = { dow: DAYS.indexOf(m[2]!.slice(0, 3)), mode };
    st.resetTime = true;
    return true;
  }],
  [/^now(?=$|\s)/, () => true],
  [/^(today|midnight)(?=$|\s)/, (_m, st) => { st.resetTime = true; return true; }],
  [/^noon(?=$|\s)/, (_m, st) => { st.time = { h: 12, mi: 0, s: 0 }; return true; }],
  [/^tomorrow(?=$|\s)/, (_m, st) => { st.rel.d += 1; st.resetTime = true; return true; }],
  [/^yesterday(?=$|\s)/, (_m, st) => { st.rel.d -= 1; st.resetTime = true; return true; }],
  [/^ago(?=$|\s)/, (_m, st) => {
    const r = st.rel;
    st.rel = { y: -r.y, mo: -r.mo, d: -r.d, h: -r.h, mi: -r.mi, s: -r.s };
    return true;
  }],
];

/**
 * Parses what PHP's `strtotime()` would, relative to `nowMs`, reading zone-less input as wall time in `zone`.
 * Returns the instant in epoch milliseconds, or undefined when the input is not a date.
 * @example parseDateTime('tomorrow 9am', 'America/New_York', Date.now())
 */
export function parseDateTime(input: string | number, zone: string, nowMs: number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) ? Math.trunc(input) * 1000 : undefined;
  const text = input.trim().toLowerCase();
  if (text === '') return undefined;
  // Numeric strings are Unix timestamps, as the plugin's is_time() checks is_numeric() first.
  if (/^-?\d+(\.\d+)?$/.test(text)) return Math.trunc(Number(text)) * 1000;
  const ts = /^@(-?\d+)$/.exec(text);
  if (ts) return Number(ts[1]) * 1000;

  const now = utcToWall(nowMs, zone);
  const st: State = { rel: { y: 0, mo: 0, d: 0, h: 0, mi: 0, s: 0 }, resetTime: false };
  let rest = text;
  let guard = 0;
  while (rest.length > 0 && guard++ < 20) {
    rest = rest.replace(/^[\s,]+/, '');
    if (rest.length === 0) break;
    let matched = false;
    for (const [re, apply] of RULES) {
      const m = re.exec(rest);
      if (m && apply(m, st, now)) {
        rest = rest.slice(m[0].length);
        matched = true;
        break;
      }
    }
    if (!matched) return undefined;
  }
  if (rest.trim().length > 0) return undefined;

  const day = st.date ?? { y: now.y, mo: now.mo, d: now.d };
  const time = st.time ?? (st.resetTime ? { h: 0, mi: 0, s: 0 } : { h: now.h, mi: now.mi, s: now.s });
  let wall = makeWall(day.y + st.rel.y, day.mo + st.rel.mo, day.d + st.rel.d, time.h, time.mi, time.s);
  if (st.date && (st.date.d !== makeWall(st.date.y, st.date.mo, st.date.d).d)) return undefined;
  if (st.weekday) {
    const current = new Date(wallToEpoch(wall)).getUTCDay();
    let diff = (st.weekday.dow - current + 7) % 7;
    if (st.weekday.mode === 'next' && diff === 0) diff = 7;
    if (st.weekday.mode === 'last') diff = diff === 0 ? -7 : diff - 7;
    wall = makeWall(wall.y, wall.mo, wall.d + diff, wall.h, wall.mi, wall.s);
  }
  wall = makeWall(wall.y, wall.mo, wall.d, wall.h + st.rel.h, wall.mi + st.rel.mi, wall.s + st.rel.s);
  if (wall.y < 1 || wall.y > 9999) return undefined;
  return st.offsetMin !== undefined ? wallToEpoch(wall) - st.offsetMin * 60_000 : wallToUtc(wall, zone);
}
