// The POSIX TZ string a TZif v2+ file ends with (RFC 8536 §3.3, e.g. `EST5EDT,M3.2.0,M11.1.0`): the zone's rule for
// every instant after its last explicit transition. Parsed here so a VTIMEZONE can state that rule once, as an
// RRULE, instead of one observance per year.

/** When in a year a change happens: `Mm.w.d` (w = 5: the last), `Jn` (1-365, no 29 February), `n` (0-365). */
export type PosixDate =
  | { readonly kind: 'month'; readonly month: number; readonly week: number; readonly weekday: number }
  | { readonly kind: 'julian1'; readonly day: number }
  | { readonly kind: 'julian0'; readonly day: number };

/** A change: its date and the local wall time of day (seconds, may be negative or over 24 h: RFC 8536 §3.3.1). */
export interface PosixRule {
  readonly date: PosixDate;
  readonly time: number;
}

/** Offsets are seconds east of UTC (POSIX writes them west-positive). */
export interface PosixTz {
  readonly std: { readonly abbr: string; readonly offset: number };
  readonly dst?: { readonly abbr: string; readonly offset: number; readonly start: PosixRule; readonly end: PosixRule };
}

export class PosixTzError extends Error {
  override readonly name = 'PosixTzError';
}

const NAME = String.raw`(<[A-Za-z0-9+\-]+>|[A-Za-z]{3,})`;
const OFFSET = String.raw`([+-]?\d{1,3}(?::\d{1,2}){0,2})`;
const RULE = String.raw`(M\d{1,2}\.\d\.\d|J\d{1,3}|\d{1,3})(?:/${OFFSET})?`;
const TZ_RE = new RegExp(`^${NAME}${OFFSET}(?:${NAME}${OFFSET}?(?:,${RULE},${RULE})?)?$`);

/** `[+-]h[:m[:s]]` as signed seconds. */
function seconds(text: string): number {
  const sign = text.startsWith('-') ? -1 : 1;
  const [h = 0, m = 0, s = 0] = text.replace(/^[+-]/, '').split(':').map(Number);
  return sign * (h * 3600 + m * 60 + s);
}

function parseDate(text: string): PosixDate {
  const m = /^M(\d+)\.(\d)\.(\d)$/.exec(text);
  const date: PosixDate = m
    ? { kind: 'month', month: Number(m[1]), week: Number(m[2]), weekday: Number(m[3]) }
    : text.startsWith('J')
      ? { kind: 'julian1', day: Number(text.slice(1)) }
      : { kind: 'julian0', day: Number(text) };
  const ok =
    date.kind === 'month'
      ? date.month >= 1 && date.month <= 12 && date.week >= 1 && date.week <= 5 && date.weekday <= 6
      : date.kind === 'julian1'
        ? date.day >= 1 && date.day <= 365
        : date.day <= 365;
  if (!ok) throw new PosixTzError(`bad POSIX TZ date ${text}`);
  return date;
}

/**
 * Parses a POSIX TZ string as TZif footers write it.
 * @example parsePosixTz('CET-1CEST,M3.5.0,M10.5.0/3') // std +3600 s, dst +7200 s from the last Sunday of March 02:00
 */
export function parsePosixTz(text: string): PosixTz {
  const m = TZ_RE.exec(text);
  if (!m) throw new PosixTzError(`unsupported POSIX TZ string ${JSON.stringify(text)}`);
  const name = (s: string) => s.replace(/^<|>$/g, '');
  const std = { abbr: name(m[1]!), offset: 0 - seconds(m[2]!) };
  if (m[3] === undefined) return { std };
  if (m[5] === undefined) throw new PosixTzError(`POSIX TZ string without DST rules ${JSON.stringify(text)}`);
  const rule = (date: string, time: string | undefined): PosixRule => ({
    date: parseDate(date),
    time: time === undefined ? 7200 : seconds(time),
  });
  return {
    std,
    dst: {
      abbr: name(m[3]),
      offset: m[4] === undefined ? std.offset + 3600 : 0 - seconds(m[4]),
      start: rule(m[5], m[6]),
      end: rule(m[7]!, m[8]),
    },
  };
}

const DAY_MS = 86_400_000;
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Midnight (as a UTC epoch of the wall date) of the rule's date in `year`. */
function dateIn(date: PosixDate, year: number): number {
  switch (date.kind) {
    case 'julian1':
      return Date.UTC(year, 0, date.day + (isLeap(year) && date.day > 59 ? 1 : 0));
    case 'julian0':
      return Date.UTC(year, 0, date.day + 1);
    case 'month': {
      const first = Date.UTC(year, date.month - 1, 1);
      let day = 1 + ((date.weekday - new Date(first).getUTCDay() + 7) % 7) + (date.week - 1) * 7;
      const length = new Date(Date.UTC(year, date.month, 0)).getUTCDate();
      while (day > length) day -= 7;
      return first + (day - 1) * DAY_MS;
    }
  }
}

/** One change the footer makes: `at` (UTC ms) is the first instant of offset `to` (seconds east). */
export interface PosixChange {
  readonly at: number;
  readonly from: number;
  readonly to: number;
  readonly isDst: boolean;
  readonly abbr: string;
}

/** The footer's two changes whose local date falls in `year`, in time order (none without DST). */
export function posixChanges(tz: PosixTz, year: number): PosixChange[] {
  const dst = tz.dst;
  if (dst === undefined) return [];
  // The start's wall time is read in standard time, the end's in daylight time (POSIX).
  const start: PosixChange = {
    at: dateIn(dst.start.date, year) + (dst.start.time - tz.std.offset) * 1000,
    from: tz.std.offset,
    to: dst.offset,
    isDst: true,
    abbr: dst.abbr,
  };
  const end: PosixChange = {
    at: dateIn(dst.end.date, year) + (dst.end.time - dst.offset) * 1000,
    from: dst.offset,
    to: tz.std.offset,
    isDst: false,
    abbr: tz.std.abbr,
  };
  return start.at < end.at ? [start, end] : [end, start];
}
