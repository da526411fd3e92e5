// VTIMEZONE blocks (RFC 5545 §3.6.5) from the IANA data, so a client needs no zone database of its own. Only the
// UTC years that hold a time the feed writes are covered (a 1000-9999 event needs 1000 and 9999, not the 8,998
// between); each offset change in them is its own observance, except that a zone's current rule (its TZif footer)
// becomes one DAYLIGHT/STANDARD pair with RRULEs once it would take more than EXPLICIT_YEARS years of observances.
// Fixed WordPress offsets (`UTC+5`) get a single observance.
import { zoneAbbr } from '../time/index.ts';
import { footerEra, ruleChanges, type ZoneChange, type ZoneRules } from '../time/zone-rules.ts';
import { agreesWithIntl, rulesOf, yearChanges, zoneOffset } from '../time/year-changes.ts';
import { escapeText } from './content-line.ts';
import { posixRrule } from './posix-rrule.ts';

const MINUTE_MS = 60_000;
/** Years of the current rule written change by change (as the plugin writes them) before the RRULE pair is used. */
export const EXPLICIT_YEARS = 10;

/** Instants a feed writes in one zone, `from <= to` (UTC ms): an event's start, its end, or a series' whole span. */
export interface Span {
  readonly from: number;
  readonly to: number;
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
  const offset = zoneOffset(zone);
  return Math.min(offset(Date.UTC(y, 0, 1)), offset(Date.UTC(y, 6, 1)));
};

function observance(zone: string, startUtc: number, from: number, to: number, rrule?: string): string[] {
  const kind = to > standardOffset(zone, startUtc) ? 'DAYLIGHT' : 'STANDARD';
  return [
    `BEGIN:${kind}`,
    `DTSTART:${localStamp(startUtc, from)}`,
    ...(rrule === undefined ? [] : [`RRULE:${rrule}`]),
    `TZOFFSETFROM:${utcOffset(from)}`,
    `TZOFFSETTO:${utcOffset(to)}`,
    `TZNAME:${escapeText(zoneAbbr(zone, startUtc, to))}`,
    `END:${kind}`,
  ];
}

/** The UTC years holding the spans' instants, as sorted, merged `[first, last]` ranges. */
export function yearRanges(spans: readonly Span[]): Array<[number, number]> {
  const ranges = spans
    .map((s): [number, number] => [new Date(s.from).getUTCFullYear(), new Date(s.to).getUTCFullYear()])
    .sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = out.at(-1);
    if (last !== undefined && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else out.push(r);
  }
  return out;
}

/** The first year from which the RRULE pair states every change, with its observances; or `undefined`. */
function rulePair(
  zone: string,
  rules: ZoneRules | null,
  ranges: ReadonlyArray<[number, number]>,
): { year: number; lines: string[] } | undefined {
  const dst = rules?.footer?.dst;
  if (rules === null || dst === undefined) return undefined;
  const era = footerEra(rules);
  const years = ranges.reduce((n, [a, b]) => n + Math.max(0, b - Math.max(a, era) + 1), 0);
  const year = ranges.map(([a]) => Math.max(a, era)).find((y, i) => y <= ranges[i]![1]);
  const [onStart, onEnd] = [posixRrule(dst.start), posixRrule(dst.end)];
  if (years <= EXPLICIT_YEARS || year === undefined || onStart === undefined || onEnd === undefined) return undefined;
  const changes = ruleChanges(rules, year);
  const lastYear = ranges.at(-1)![1];
  // Intl (every API date) must agree with the rule in the first and the last year it covers.
  if (changes.length !== 2 || !agreesWithIntl(zone, rules, [...changes, ...ruleChanges(rules, lastYear)], []))
    return undefined;
  const lines = changes.flatMap((c: ZoneChange) => observance(zone, c.at, c.from, c.to, c.isDst ? onStart : onEnd));
  return { year, lines };
}

/**
 * The VTIMEZONE of `zone` (its id as `tzid`) for the UTC years of `spans`: the offset in force on the first year's
 * 1 January (dated 1970, or the year before the first if that is earlier), the offset on 1 January of each year
 * after a gap, and every change in the covered years.
 * @example vtimezoneLines('Europe/Paris', 'Europe/Paris', [{ from: Date.UTC(2032, 0, 1), to: Date.UTC(2032, 11, 1) }]) // 3 observances
 */
export function vtimezoneLines(zone: string, tzid: string, spans: readonly Span[]): string[] {
  const ranges = yearRanges(spans);
  const first = ranges[0]?.[0] ?? 1970;
  const start = Date.UTC(first, 0, 1);
  const offset = zoneOffset(zone);
  const initial = offset(start);
  // Clients apply no offset to a time at or before the first onset (ical.js), so it must precede every time written.
  const anchor = first > 1970 ? '19700101T000000' : `${String(first - 1).padStart(4, '0')}0101T000000`;
  const lines = [
    'BEGIN:VTIMEZONE',
    `TZID:${tzid}`,
    ...observance(zone, start, initial, initial).map((l) => (l.startsWith('DTSTART:') ? `DTSTART:${anchor}` : l)),
  ];
  const pair = rulePair(zone, rulesOf(zone), ranges);
  years: for (const [i, [a, b]] of ranges.entries()) {
    for (let y = a; y <= b; y++) {
      // After a gap, the offset in force on 1 January: the changes of the years between are not written.
      if (y === a && i > 0) {
        const jan1 = Date.UTC(y, 0, 1);
        const off = offset(jan1);
        lines.push(...observance(zone, jan1, off, off));
      }
      if (pair !== undefined && y >= pair.year) {
        lines.push(...pair.lines);
        break years;
      }
      for (const c of yearChanges(zone, y)) lines.push(...observance(zone, c.at, c.from, c.to));
    }
  }
  lines.push('END:VTIMEZONE');
  return lines;
}
