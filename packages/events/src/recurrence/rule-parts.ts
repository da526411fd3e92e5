// An RRULE value read part by part as RFC 5545 §3.3.10 defines it, into a typed rule. Every rule the service stores
// or exports passes through here: a part strict parsers (ical.js, python-icalendar) would reject is refused at the
// edge, so one author cannot break a feed that everyone reads.

export type Frequency = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** `MO` (every Monday of the period) or `2TU` / `-1FR` (the nth of the month or year). */
export interface ByDay {
  readonly weekday: Weekday;
  readonly ordinal?: number;
}

/** An RRULE whose every part has been checked; `until` keeps the iCalendar form (`YYYYMMDD[THHMMSS[Z]]`). */
export interface Rule {
  readonly freq: Frequency;
  readonly interval: number;
  readonly count?: number;
  readonly until?: string;
  readonly byDay?: readonly ByDay[];
  readonly byMonthDay?: readonly number[];
  readonly byMonth?: readonly number[];
  readonly byYearDay?: readonly number[];
  readonly byWeekNo?: readonly number[];
  readonly bySetPos?: readonly number[];
  readonly wkst?: Weekday;
}

/** A rule part that is not RFC 5545 (or not supported here); `part` names it for the 400's message. */
export class RulePartError extends Error {
  constructor(
    readonly part: string,
    message: string,
  ) {
    super(message);
  }
}

const RFC_FREQS = ['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];
const SUPPORTED_FREQS: readonly string[] = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] satisfies Frequency[];
const KNOWN_PARTS = [
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
];
// Time-of-day parts: valid RFC 5545, refused because an occurrence starts at the series' time of day.
const TIME_PARTS = { BYSECOND: 60, BYMINUTE: 59, BYHOUR: 23 } as const;
const UNTIL_FORM = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z?)?$/;

/** A comma list of integers with an optional sign, each `min`..`max` in absolute value (0 allowed only if `min` is 0). */
function intList(part: string, value: string, digits: number, min: number, max: number, signed: boolean): number[] {
  return value.split(',').map((item) => {
    const m = (signed ? /^([+-]?)(\d+)$/ : /^()(\d+)$/).exec(item);
    const n = m ? Number(m[2]) : NaN;
    if (!m || m[2]!.length > digits || n < min || n > max) {
      const range = signed ? `±${min} to ±${max}` : `${min} to ${max}`;
      throw new RulePartError(part, `${part} values must be integers from ${range} ("${item}" is not).`);
    }
    return m[1] === '-' ? -n : n;
  });
}

function positive(part: string, value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1)
    throw new RulePartError(part, `${part} must be a whole number of at least 1.`);
  return Number(value);
}

function untilValue(value: string): string {
  const m = UNTIL_FORM.exec(value);
  const ok =
    m !== null &&
    (() => {
      const [y, mo, d] = [+m[1]!, +m[2]!, +m[3]!];
      const probe = new Date(Date.UTC(y, mo - 1, d));
      const realDay =
        y >= 1000 && probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d;
      return realDay && (m[4] === undefined || (+m[4] <= 23 && +m[5]! <= 59 && +m[6]! <= 59));
    })();
  if (!ok)
    throw new RulePartError(
      'UNTIL',
      'UNTIL must be a real date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS, or with Z for UTC).',
    );
  return value;
}

function byDayList(value: string, freq: Frequency, hasWeekNo: boolean): ByDay[] {
  return value.split(',').map((item) => {
    const m = /^([+-]?)(\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
    if (!m)
      throw new RulePartError(
        'BYDAY',
        `BYDAY values are weekdays (MO … SU) with an optional ordinal (1MO, -1FR): "${item}" is not.`,
      );
    const weekday = m[3] as Weekday;
    if (m[2] === undefined) {
      if (m[1] !== '') throw new RulePartError('BYDAY', `BYDAY "${item}" has a sign without an ordinal.`);
      return { weekday };
    }
    const n = Number(m[2]);
    if (n < 1 || n > 53) throw new RulePartError('BYDAY', `BYDAY ordinals must be from ±1 to ±53, not 0 ("${item}").`);
    // RFC 5545: ordinals only in MONTHLY and YEARLY rules, and not in a YEARLY rule with BYWEEKNO.
    if (freq !== 'MONTHLY' && freq !== 'YEARLY')
      throw new RulePartError('BYDAY', `BYDAY ordinals ("${item}") are allowed only with FREQ=MONTHLY or FREQ=YEARLY.`);
    if (hasWeekNo) throw new RulePartError('BYDAY', `BYDAY ordinals ("${item}") are not allowed with BYWEEKNO.`);
    return { weekday, ordinal: m[1] === '-' ? -n : n };
  });
}

function weekday(part: string, value: string): Weekday {
  if (!(WEEKDAYS as readonly string[]).includes(value))
    throw new RulePartError(part, `${part} must be a weekday (MO, TU, WE, TH, FR, SA or SU).`);
  return value as Weekday;
}

/** Splits `NAME=VALUE;…` into its parts, refusing empty, unknown and repeated names. */
function splitParts(value: string): Map<string, string> {
  const parts = new Map<string, string>();
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    const v = eq < 0 ? '' : part.slice(eq + 1);
    if (name === '' || v === '')
      throw new RulePartError(name || part || 'RRULE', `"${part}" is not a NAME=VALUE rule part.`);
    if (!KNOWN_PARTS.includes(name))
      throw new RulePartError(name, `The rule part ${name} is not an RFC 5545 RRULE part.`);
    if (parts.has(name)) throw new RulePartError(name, `The rule part ${name} is given twice.`);
    parts.set(name, v);
  }
  return parts;
}

/**
 * Reads an RRULE value (no `RRULE:` prefix, upper case) into a `Rule`, checking every part's name, value range and
 * the combinations RFC 5545 forbids. Throws `RulePartError` naming the first bad part.
 * @example parseRule('FREQ=MONTHLY;BYDAY=-1FR;COUNT=6') // { freq: 'MONTHLY', interval: 1, count: 6, byDay: [{ weekday: 'FR', ordinal: -1 }] }
 */
export function parseRule(value: string): Rule {
  const parts = splitParts(value);
  const freqText = parts.get('FREQ');
  if (freqText === undefined) throw new RulePartError('FREQ', 'The rule needs FREQ.');
  if (!RFC_FREQS.includes(freqText)) throw new RulePartError('FREQ', `FREQ must be one of ${RFC_FREQS.join(', ')}.`);
  if (!SUPPORTED_FREQS.includes(freqText))
    throw new RulePartError(
      'FREQ',
      "FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY (an occurrence starts at the event's time of day).",
    );
  const freq = freqText as Frequency;
  for (const [name, max] of Object.entries(TIME_PARTS)) {
    const v = parts.get(name);
    if (v === undefined) continue;
    intList(name, v, 2, 0, max, false);
    throw new RulePartError(
      name,
      `The rule part ${name} is not supported (occurrences start at the event's time of day).`,
    );
  }
  if (parts.has('COUNT') && parts.has('UNTIL'))
    throw new RulePartError('COUNT', 'COUNT and UNTIL cannot both be given.');
  const get = (name: string) => parts.get(name);
  const list = (name: string, digits: number, min: number, max: number, signed: boolean) => {
    const v = get(name);
    return v === undefined ? undefined : intList(name, v, digits, min, max, signed);
  };
  const byWeekNo = list('BYWEEKNO', 2, 1, 53, true);
  if (byWeekNo && freq !== 'YEARLY') throw new RulePartError('BYWEEKNO', 'BYWEEKNO is allowed only with FREQ=YEARLY.');
  const byMonthDay = list('BYMONTHDAY', 2, 1, 31, true);
  if (byMonthDay && freq === 'WEEKLY')
    throw new RulePartError('BYMONTHDAY', 'BYMONTHDAY is not allowed with FREQ=WEEKLY.');
  const byYearDay = list('BYYEARDAY', 3, 1, 366, true);
  if (byYearDay && freq !== 'YEARLY')
    throw new RulePartError('BYYEARDAY', 'BYYEARDAY is not allowed with FREQ=DAILY, WEEKLY or MONTHLY.');
  const byMonth = list('BYMONTH', 2, 1, 12, false);
  const bySetPos = list('BYSETPOS', 3, 1, 366, true);
  const byDayText = get('BYDAY');
  const byDay = byDayText === undefined ? undefined : byDayList(byDayText, freq, byWeekNo !== undefined);
  // Valid RFC 5545, but rrule (ours) and python-dateutil read `MO,1FR` as "Mondays that are first Fridays" (never)
  // while ical.js reads "Mondays and the first Friday": the API and the feed could not agree, so it is refused.
  if (byDay && byDay.some((d) => d.ordinal === undefined) && byDay.some((d) => d.ordinal !== undefined)) {
    throw new RulePartError(
      'BYDAY',
      'BYDAY cannot mix weekdays with and without ordinals (MO,1FR): write two series instead.',
    );
  }
  if (bySetPos && !byDay && !byMonthDay && !byYearDay && !byWeekNo && !byMonth) {
    throw new RulePartError('BYSETPOS', 'BYSETPOS must be used with another BYxxx rule part.');
  }
  const count = get('COUNT'),
    interval = get('INTERVAL'),
    until = get('UNTIL'),
    wkst = get('WKST');
  return {
    freq,
    interval: interval === undefined ? 1 : positive('INTERVAL', interval),
    ...(count !== undefined ? { count: positive('COUNT', count) } : {}),
    ...(until !== undefined ? { until: untilValue(until) } : {}),
    ...(byDay ? { byDay } : {}),
    ...(byMonthDay ? { byMonthDay } : {}),
    ...(byMonth ? { byMonth } : {}),
    ...(byYearDay ? { byYearDay } : {}),
    ...(byWeekNo ? { byWeekNo } : {}),
    ...(bySetPos ? { bySetPos } : {}),
    ...(wkst !== undefined ? { wkst: weekday('WKST', wkst) } : {}),
  };
}
