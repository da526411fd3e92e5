// The token grammar of PHP's strtotime() (timelib's parse_date.re), for the formats clients send: each rule is a
// sticky regex plus what it does to the parse state, and at each position the longest match wins as in re2c.
// Rules and their effects follow timelib's actions, including its quirks (`9am tomorrow` is midnight: `tomorrow`
// resets the time; `next week` lands on Monday).

/** What a rule can set; unset date and time fields are filled from "now" later (timelib_fill_holes). */
export interface Parsed {
  y?: number;
  m?: number;
  d?: number;
  h?: number;
  i?: number;
  s?: number;
  haveDate: boolean;
  haveTime: boolean;
  /** Seconds east of UTC when the text names a zone or offset. */
  offset?: number;
  rel: { y: number; m: number; d: number; h: number; i: number; s: number };
  /** `monday`, `next friday`, `monday next week`: behavior 0 = strictly after, 1 = today counts, 2 = of that week. */
  weekday?: { day: number; behavior: 0 | 1 | 2 };
  /** `first thursday of`, `last friday of`, or a count of business days (`+3 weekdays`); the last one named wins. */
  special?: { type: 'nth-weekday-of' | 'last-weekday-of' } | { type: 'weekdays'; amount: number };
  firstLastDayOf?: 'first' | 'last';
}

export const newParsed = (): Parsed => ({
  haveDate: false,
  haveTime: false,
  rel: { y: 0, m: 0, d: 0, h: 0, i: 0, s: 0 },
});

const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};
const WEEKDAYS: Record<string, number> = {
  sun: 0,
  sunday: 0,
  mon: 1,
  monday: 1,
  tue: 2,
  tuesday: 2,
  wed: 3,
  wednesday: 3,
  thu: 4,
  thursday: 4,
  fri: 5,
  friday: 5,
  sat: 6,
  saturday: 6,
};
/** timelib_lookup_relative_text: the amount, and `this` is the one with behavior 1. */
const REL_TEXT: Record<string, number> = {
  last: -1,
  previous: -1,
  this: 0,
  next: 1,
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
  eleventh: 11,
  twelfth: 12,
};
type Unit = 'y' | 'm' | 'd' | 'h' | 'i' | 's';
/** Relative units and their multiplier (timelib_relunit_table, the parts clients use). */
const UNITS: Record<string, [Unit, number]> = {
  sec: ['s', 1],
  secs: ['s', 1],
  second: ['s', 1],
  seconds: ['s', 1],
  min: ['i', 1],
  mins: ['i', 1],
  minute: ['i', 1],
  minutes: ['i', 1],
  hour: ['h', 1],
  hours: ['h', 1],
  day: ['d', 1],
  days: ['d', 1],
  week: ['d', 7],
  weeks: ['d', 7],
  fortnight: ['d', 14],
  fortnights: ['d', 14],
  forthnight: ['d', 14],
  forthnights: ['d', 14],
  month: ['m', 1],
  months: ['m', 1],
  year: ['y', 1],
  years: ['y', 1],
};

const alt = (words: object): string =>
  Object.keys(words)
    .sort((a, b) => b.length - a.length)
    .join('|');
const MONTH = `(${alt(MONTHS)})`;
const WEEKDAY = `(${alt(WEEKDAYS)})`;
const RELTEXT = `(${alt(REL_TEXT)})`;
/** `weekday(s)` after a number or `next`/ordinal counts business days; alone it is a name for Monday. */
const BUSINESS = { weekday: 1, weekdays: 1 };
const UNIT = `(${alt({ ...UNITS, ...BUSINESS })})`;
// After `next`/`this`/an ordinal, a singular `week` is relativetextweek's (a week's Monday), not an amount.
const REL_UNIT = `(${alt({ ...Object.fromEntries(Object.entries(UNITS).filter(([u]) => u !== 'week')), ...BUSINESS })})`;
const DAY = '(3[01]|[0-2]?\\d)(?:st|nd|rd|th)?';
const YEAR4 = '(\\d{4})';
const SEP = '[ \\t.,-]*';

/** A rule's effect; false rejects the whole input (timelib's "double time" and friends). */
type Action = (m: RegExpExecArray, p: Parsed) => boolean;

function setDate(p: Parsed, y: number | undefined, m: number, d: number | undefined): boolean {
  if (p.haveDate || m < 1 || m > 12) return false;
  p.haveDate = true;
  if (y !== undefined) p.y = y;
  p.m = m;
  if (d !== undefined) p.d = d;
  return true;
}

/** TIMELIB_HAVE_TIME: a second time of day is an error. */
function setTime(p: Parsed, h: number, i: number, s: number): boolean {
  if (p.haveTime) return false;
  p.haveTime = true;
  p.h = h;
  p.i = i;
  p.s = s;
  return true;
}

/** TIMELIB_UNHAVE_TIME: `today`, `tomorrow`, weekday names… reset the clock to midnight (a later time may follow). */
function unhaveTime(p: Parsed): void {
  p.haveTime = false;
  p.h = 0;
  p.i = 0;
  p.s = 0;
}

function setOffset(p: Parsed, seconds: number): boolean {
  if (p.offset !== undefined) return false;
  p.offset = seconds;
  return true;
}

/**
 * timelib_set_relative: an amount of a unit, or of a weekday (`second monday`, `last friday`); a weekday resets the
 * time unless it came with a number (`+1 wednesday` keeps the clock).
 */
function addRelative(p: Parsed, amount: number, unit: string, behavior: 0 | 1, keepTime = false): void {
  if (unit in BUSINESS) {
    if (!keepTime) unhaveTime(p);
    p.special = { type: 'weekdays', amount };
    return;
  }
  const day = WEEKDAYS[unit];
  if (day === undefined) {
    const [field, mult] = UNITS[unit]!;
    p.rel[field] += amount * mult;
    return;
  }
  if (!keepTime) unhaveTime(p);
  p.rel.d += (amount > 0 ? amount - 1 : amount) * 7;
  p.weekday = { day, behavior };
}

/** timelib_process_year: two-digit years are 1970–2069. */
const year = (digits: string): number => (digits.length > 2 ? +digits : +digits < 70 ? 2000 + +digits : 1900 + +digits);

const hour12 = (h: number, ampm: string): number => (h % 12) + (ampm === 'p' ? 12 : 0);

function isoWeekStart(y: number): number {
  const dow = new Date(Date.UTC(y, 0, 1)).getUTCDay();
  return -(dow > 4 ? dow - 7 : dow);
}

const RULES: [RegExp, Action][] = [
  // dates
  [
    new RegExp(`${YEAR4}[-/](\\d{1,2})[-/](\\d{1,2})`, 'y'),
    (m, p) => +m[3]! <= 31 && setDate(p, +m[1]!, +m[2]!, +m[3]!),
  ],
  [new RegExp(`${YEAR4}-(\\d{1,2})`, 'y'), (m, p) => setDate(p, +m[1]!, +m[2]!, 1)],
  [
    /(\d{1,2})\/(\d{1,2})(?:\/(\d{4}|\d{2}))?/y,
    (m, p) => +m[2]! <= 31 && setDate(p, m[3] ? year(m[3]) : undefined, +m[1]!, +m[2]!),
  ],
  [
    new RegExp(`(\\d{1,2})[-.](\\d{1,2})[-.]${YEAR4}`, 'y'),
    (m, p) => +m[1]! <= 31 && setDate(p, +m[3]!, +m[2]!, +m[1]!),
  ],
  [
    new RegExp(`${YEAR4}-?w(\\d{2})(?:-?([0-7]))?`, 'y'),
    (m, p) => {
      const y = +m[1]!;
      const week = +m[2]!;
      if (week < 1 || week > 53 || !setDate(p, y, 1, 1)) return false;
      p.rel.d += isoWeekStart(y) + (week - 1) * 7 + (m[3] === undefined ? 1 : +m[3]);
      return true;
    },
  ],
  [
    new RegExp(`${MONTH}${SEP}${DAY}(?:[ \\t.,-]+${YEAR4})?`, 'y'),
    (m, p) => setDate(p, m[3] ? +m[3] : undefined, MONTHS[m[1]!]!, +m[2]!),
  ],
  [
    new RegExp(`${DAY}${SEP}${MONTH}(?:${SEP}${YEAR4})?`, 'y'),
    (m, p) => setDate(p, m[3] ? +m[3] : undefined, MONTHS[m[2]!]!, +m[1]!),
  ],
  [new RegExp(`${MONTH}${SEP}${YEAR4}`, 'y'), (m, p) => setDate(p, +m[2]!, MONTHS[m[1]!]!, 1)],
  [new RegExp(MONTH, 'y'), (m, p) => setDate(p, undefined, MONTHS[m[1]!]!, undefined)],
  // times of day
  [
    /t?(0?[1-9]|1[0-2])(?:[:.]([0-5]\d)(?:[:.]([0-5]\d|60)(?:[.,:]\d+)?)?)?[ \t]*([ap])\.?m\.?/y,
    (m, p) => setTime(p, hour12(+m[1]!, m[4]!), +(m[2] ?? 0), +(m[3] ?? 0)),
  ],
  [
    /t?(2[0-4]|[01]?\d)[:.]([0-5]\d)(?:[:.]([0-5]\d|60)(?:[.,]\d+)?)?/y,
    (m, p) => setTime(p, +m[1]!, +m[2]!, +(m[3] ?? 0)),
  ],
  // zones: only UTC names and numeric offsets
  [/(?:z|utc|gmt)(?![a-z])/y, (_m, p) => setOffset(p, 0)],
  [
    /(?:gmt)?([+-])(2[0-4]|[01]?\d):?([0-5]\d)?/y,
    (m, p) => setOffset(p, (m[1] === '-' ? -1 : 1) * (+m[2]! * 3600 + +(m[3] ?? 0) * 60)),
  ],
  // words
  [/now/y, () => true],
  [
    /(?:today|midnight)/y,
    (_m, p) => {
      unhaveTime(p);
      return true;
    },
  ],
  [
    /noon/y,
    (_m, p) => {
      unhaveTime(p);
      return setTime(p, 12, 0, 0);
    },
  ],
  [
    /tomorrow/y,
    (_m, p) => {
      unhaveTime(p);
      p.rel.d = 1;
      return true;
    },
  ],
  [
    /yesterday/y,
    (_m, p) => {
      unhaveTime(p);
      p.rel.d = -1;
      return true;
    },
  ],
  [
    /ago/y,
    (_m, p) => {
      const r = p.rel;
      p.rel = { y: -r.y, m: -r.m, d: -r.d, h: -r.h, i: -r.i, s: -r.s };
      // A weekday is negated too: `monday 2 weeks ago` counts back from the Monday before.
      if (p.weekday) p.weekday = { ...p.weekday, day: -p.weekday.day || -7 };
      if (p.special?.type === 'weekdays') p.special = { type: 'weekdays', amount: -p.special.amount };
      return true;
    },
  ],
  // relative amounts: `+1 week`, `2 days`, `next month`, `second monday`
  [
    new RegExp(`([+-]*)[ \\t]*(\\d{1,13})[ \\t]*(?:${UNIT}|${WEEKDAY})`, 'y'),
    (m, p) => {
      const negative = (m[1]!.match(/-/g) ?? []).length % 2 === 1;
      addRelative(p, (negative ? -1 : 1) * +m[2]!, m[3] ?? m[4]!, 1, true);
      return true;
    },
  ],
  [
    new RegExp(`${RELTEXT}[ \\t]+(?:${REL_UNIT}|${WEEKDAY})`, 'y'),
    (m, p) => {
      addRelative(p, REL_TEXT[m[1]!]!, m[2] ?? m[3]!, m[1] === 'this' ? 1 : 0);
      return true;
    },
  ],
  // `next week`, `this week`: a week's Monday unless a weekday is named too (relativetextweek)
  [
    /(next|last|previous|this)[ \t]+week/y,
    (m, p) => {
      p.rel.d += REL_TEXT[m[1]!]! * 7;
      p.weekday = { day: p.weekday?.day ?? 1, behavior: 2 };
      return true;
    },
  ],
  [
    new RegExp(`${RELTEXT}[ \\t]+${WEEKDAY}[ \\t]+of`, 'y'),
    (m, p) => {
      const amount = REL_TEXT[m[1]!]!;
      if (amount === 0) return false;
      p.special = { type: amount > 0 ? 'nth-weekday-of' : 'last-weekday-of' };
      addRelative(p, amount, m[2]!, amount > 0 ? 1 : 0);
      return true;
    },
  ],
  // `back of 7pm` is 19:15, `front of 7pm` 18:45 (the meridian applies after the hour moved back, as in timelib)
  [
    /(back|front)[ \t]+of[ \t]+(2[0-4]|[01]?\d)(?:[ \t]*([ap])\.?m\.?)?/y,
    (m, p) => {
      unhaveTime(p);
      let h = m[1] === 'back' ? +m[2]! : +m[2]! - 1;
      if (m[3] === 'a' && h === 12) h = 0;
      if (m[3] === 'p' && h !== 12) h += 12;
      return setTime(p, h, m[1] === 'back' ? 15 : 45, 0);
    },
  ],
  [
    /(first|last)[ \t]+day[ \t]+of/y,
    (m, p) => {
      p.firstLastDayOf = m[1] as 'first' | 'last';
      return true;
    },
  ],
  [
    new RegExp(`${WEEKDAY}|(weekdays?)`, 'y'),
    (m, p) => {
      unhaveTime(p);
      p.weekday = { day: m[1] === undefined ? 1 : WEEKDAYS[m[1]]!, behavior: p.weekday?.behavior === 2 ? 2 : 1 };
      return true;
    },
  ],
];

/** Applies the grammar to lower-cased text; false when some part is not a strtotime() token or contradicts another. */
export function parseTokens(text: string, p: Parsed): boolean {
  let pos = 0;
  while (pos < text.length) {
    if (/[\s,.]/.test(text[pos]!)) {
      pos++;
      continue;
    }
    let best: { length: number; match: RegExpExecArray; action: Action } | undefined;
    for (const [re, action] of RULES) {
      re.lastIndex = pos;
      const match = re.exec(text);
      if (match && match[0].length > (best?.length ?? 0)) best = { length: match[0].length, match, action };
    }
    if (!best || !best.action(best.match, p)) return false;
    pos += best.length;
  }
  return true;
}
