// The offset changes of a zone in one UTC calendar year, agreeing with `offsetMinutes` (Intl), which every API date
// uses. The zone's TZif rules give them at once; they are checked against Intl (which may carry another tzdata
// release), and a year where they disagree, or a zone without a file, is found by scanning Intl instead.
import { canonicalZone, offsetMinutes } from './zone.ts';
import {
  changesBetween,
  footerEra,
  ruleChanges,
  ruleOffsetAt,
  zoneRules,
  type ZoneChange,
  type ZoneRules,
} from './zone-rules.ts';

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** The rules of `zone` from its TZif file, or `null` (a manual offset such as `UTC+5`, no file, an unknown name). */
export function rulesOf(zone: string): ZoneRules | null {
  let name: string;
  try {
    name = canonicalZone(zone);
  } catch {
    return null;
  }
  return zoneRules(name);
}

/** True when Intl gives the offsets `changes` claim: at each change, on both sides, and at the given instants. */
export function agreesWithIntl(
  zone: string,
  rules: ZoneRules,
  changes: readonly ZoneChange[],
  samples: readonly number[],
): boolean {
  return (
    changes.every((c) => offsetMinutes(zone, c.at - 1000) === c.from && offsetMinutes(zone, c.at) === c.to) &&
    samples.every((t) => offsetMinutes(zone, t) === ruleOffsetAt(rules, t))
  );
}

/** The changes of one UTC year by a day-by-day Intl scan and a bisection to the minute (~365 Intl calls). */
function scanIntl(zone: string, year: number): ZoneChange[] {
  const out: ZoneChange[] = [];
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
        if (offsetMinutes(zone, mid) === off) lo = mid;
        else hi = mid;
      }
      out.push({ at: hi, from: off, to: nextOff, isDst: false, abbr: '' });
      off = nextOff;
    }
    t = next;
  }
  return out;
}

const agreeing = new Map<string, boolean>();

/**
 * Whether the zone's TZif rules agree with Intl, checked once per zone (~3 Intl calls per explicit change): both
 * sides of every change, the midpoint between consecutive changes, and the footer's first two years and 2100.
 * Then a year's changes cost no Intl call at all, which a series over thousands of years needs.
 */
function rulesAgree(zone: string, rules: ZoneRules): boolean {
  let known = agreeing.get(zone);
  if (known === undefined) {
    const { explicit } = rules;
    const between = explicit.slice(1).map((c, i) => Math.floor((explicit[i]!.at + c.at) / 2));
    const era = footerEra(rules);
    const years = Number.isFinite(era) ? [era, era + 1, Math.max(era + 2, 2100)] : [1970, 2100];
    known = agreesWithIntl(zone, rules, [...explicit, ...years.flatMap((y) => ruleChanges(rules, y))], between);
    agreeing.set(zone, known);
  }
  return known;
}

/** The offset of `zone` (minutes) at an instant: from its TZif rules when they agree with Intl, else from Intl. */
export function zoneOffset(zone: string): (utcMs: number) => number {
  const rules = rulesOf(zone);
  return rules !== null && rulesAgree(zone, rules) ? (t) => ruleOffsetAt(rules, t) : (t) => offsetMinutes(zone, t);
}

const cache = new Map<string, readonly ZoneChange[]>();

/**
 * The offset changes of `zone` in the UTC year `year`, in time order; cached per zone and year.
 * @example yearChanges('Europe/Paris', 2032) // 28 March 01:00 UTC (+60 → +120), 31 October 01:00 UTC (+120 → +60)
 */
export function yearChanges(zone: string, year: number): readonly ZoneChange[] {
  const key = `${zone}|${year}`;
  let known = cache.get(key);
  if (known === undefined) {
    const rules = rulesOf(zone);
    const [from, to] = [Date.UTC(year, 0, 1), Date.UTC(year + 1, 0, 1)];
    const changes = rules === null ? undefined : changesBetween(rules, from, to);
    // Rules Intl disagrees with somewhere are checked year by year: 1 January and 1 July catch a change Intl has
    // and the file lacks.
    const trusted =
      changes !== undefined &&
      (rulesAgree(zone, rules!) || agreesWithIntl(zone, rules!, changes, [from, Date.UTC(year, 6, 1)]));
    known = trusted ? changes : scanIntl(zone, year);
    cache.set(key, known);
  }
  return known;
}
