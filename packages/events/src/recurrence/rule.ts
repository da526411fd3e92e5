import { createRequire } from 'node:module';
import type * as RRuleModule from 'rrule';
import { parseRule, RulePartError, type Rule } from './rule-parts.ts';

// rrule ships a UMD bundle as `main` and ESM without `exports`, so Node's ESM loader sees only a default export;
// loading it through require gives the same module in Node, tsx and vitest.
export const rrule = createRequire(import.meta.url)('rrule') as typeof RRuleModule;

/**
 * A series' recurrence as stored (format 1): an RFC 5545 RRULE value without `DTSTART` (the first event's start is
 * it), plus EXDATE and RDATE values in iCalendar form: `YYYYMMDD` (a whole day), `YYYYMMDDTHHMMSS` (wall time in the
 * event's zone) or `YYYYMMDDTHHMMSSZ` (UTC).
 */
export interface RecurrenceSpec {
  readonly rrule: string;
  readonly exdates: readonly string[];
  readonly rdates: readonly string[];
}

export const RECURRENCE_FORMAT = 1;

const ICAL_DATE = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/;
const SQL_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(Z?))?$/;

export class RecurrenceError extends Error {}

/** `2018-01-19 10:00`, `20180119T100000Z`, `2018-01-19` → the iCalendar form; undefined when not a real date. */
export function icalDate(text: string): string | undefined {
  const m = ICAL_DATE.exec(text) ?? SQL_DATE.exec(text);
  if (!m) return undefined;
  const [y, mo, d] = [+m[1]!, +m[2]!, +m[3]!];
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d || y < 1000)
    return undefined;
  const day = `${m[1]}${m[2]}${m[3]}`;
  if (m[4] === undefined) return day;
  const [h, mi, s] = [+m[4], +m[5]!, +(m[6] ?? 0)];
  if (h > 23 || mi > 59 || s > 59) return undefined;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${day}T${p(h)}${p(mi)}${p(s)}${m[7] ?? ''}`;
}

/** `parseRule` (rule-parts.ts) throwing `RecurrenceError`, the 400 on `recurrence`. */
export function readRule(value: string): Rule {
  try {
    return parseRule(value);
  } catch (err) {
    if (err instanceof RulePartError) throw new RecurrenceError(err.message);
    throw err;
  }
}

/** Checks an RRULE value part by part and returns it in upper case without the `RRULE:` prefix. */
function checkRule(text: string): string {
  const value = text
    .trim()
    .replace(/^RRULE:/i, '')
    .toUpperCase();
  const rule = readRule(value);
  if (rule.count === undefined && rule.until === undefined) {
    throw new RecurrenceError('The rule needs COUNT or UNTIL: a series is expanded into posts, so it must end.');
  }
  return value;
}

const dateList = (v: unknown, name: string): string[] => {
  const items = v === undefined || v === null || v === '' ? [] : Array.isArray(v) ? v : [v];
  return items.flatMap((item) => {
    if (typeof item !== 'string') throw new RecurrenceError(`${name} values must be strings.`);
    return item
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => {
        const d = icalDate(s);
        if (d === undefined) throw new RecurrenceError(`${name} value "${s}" is not a date or date-time.`);
        return d;
      });
  });
};

/** `RRULE:…`, `EXDATE[;…]:a,b` and `RDATE[;…]:a,b` lines (parameters such as `VALUE=DATE` are read from the value). */
function fromLines(text: string): { rrule?: string; exdate: string[]; rdate: string[] } {
  const out: { rrule?: string; exdate: string[]; rdate: string[] } = { exdate: [], rdate: [] };
  for (const line of text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)) {
    const m = /^(RRULE|EXDATE|RDATE)(?:;[^:]*)?:(.*)$/i.exec(line);
    if (!m) {
      if (out.rrule === undefined && /FREQ=/i.test(line)) {
        out.rrule = line;
        continue;
      }
      throw new RecurrenceError(`"${line}" is not an RRULE, EXDATE or RDATE line.`);
    }
    const name = m[1]!.toUpperCase();
    if (name === 'RRULE') {
      if (out.rrule !== undefined) throw new RecurrenceError('Only one RRULE is supported.');
      out.rrule = m[2]!;
    } else (name === 'EXDATE' ? out.exdate : out.rdate).push(m[2]!);
  }
  return out;
}

const PRO_KEYS = new Set(['rules', 'exclusions', 'description']);

/**
 * Whether `recurrence` is Events Calendar Pro's object (`{rules: [...], exclusions?, description?}`, as ESIPFed's
 * `create_recurring_events.py` sends it). The plugin without Pro creates the event and ignores the field (issue 25);
 * so do we: Pro's rule vocabulary ("Every Week", end types, custom day lists) is not mapped to RFC 5545 here.
 * @example isProRecurrence({ rules: [{ type: 'Every Week', 'end-type': 'After', 'end-count': 5 }] }) // true
 */
export function isProRecurrence(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('rules' in value)) return false;
  return Object.keys(value).every((k) => PRO_KEYS.has(k));
}

/**
 * Reads the `recurrence` field of an event write: `null`/`""` removes the recurrence; a string of RFC 5545 lines or
 * a bare RRULE value; or `{rrule, exdate?, rdate?}` with dates as strings or lists. Throws `RecurrenceError`.
 * @example parseRecurrence({ rrule: 'FREQ=WEEKLY;COUNT=10', exdate: ['2018-01-19'] })
 */
export function parseRecurrence(value: unknown): RecurrenceSpec | null {
  if (value === null || value === '' || value === false) return null;
  let raw: { rrule?: unknown; exdate?: unknown; rdate?: unknown };
  if (typeof value === 'string') raw = fromLines(value);
  else if (typeof value === 'object' && !Array.isArray(value)) {
    raw = value as Record<string, unknown>;
    const unknownKey = Object.keys(raw).find((k) => !['rrule', 'exdate', 'rdate'].includes(k));
    if (unknownKey !== undefined)
      throw new RecurrenceError(`Unknown recurrence key "${unknownKey}" (use rrule, exdate, rdate).`);
  } else throw new RecurrenceError('recurrence must be RFC 5545 text or an object {rrule, exdate, rdate}.');
  if (typeof raw.rrule !== 'string' || raw.rrule.trim() === '') throw new RecurrenceError('recurrence needs an RRULE.');
  return {
    rrule: checkRule(raw.rrule),
    exdates: [...new Set(dateList(raw.exdate, 'EXDATE'))].sort(),
    rdates: [...new Set(dateList(raw.rdate, 'RDATE'))].sort(),
  };
}
