// A zone's offset changes from its TZif file: the explicit transitions (finite, a few hundred at most) and the POSIX
// footer for every year after them. Finding a year's changes costs a binary search or two date computations, where
// scanning Intl day by day costs ~365 calls per year (the cause of a 9,000-year event taking 30 s to export).
import { parsePosixTz, posixChanges, type PosixTz } from './posix-tz.ts';
import { readTzif, readZoneFile, type TzifData } from './tzif.ts';

/** An offset change: `at` (UTC ms) is the first instant of offset `to`; offsets in minutes east of UTC. */
export interface ZoneChange {
  readonly at: number;
  readonly from: number;
  readonly to: number;
  readonly isDst: boolean;
  readonly abbr: string;
}

export interface ZoneRules {
  /** Offset (minutes) before the first change: local mean time for most zones. */
  readonly initial: number;
  /** The file's changes of offset, in time order (changes of name or DST flag alone are left out). */
  readonly explicit: readonly ZoneChange[];
  readonly footer: PosixTz | undefined;
}

// Minutes rounded as `offsetMinutes` rounds what Intl reports (LMT -4:56:02 is -296), so both sources agree.
const minutes = (seconds: number) => Math.round(seconds / 60);

/** The rules of a parsed TZif file (`footer` unparsable: `undefined`, so callers stop at the last transition). */
export function rulesFromTzif(data: TzifData): ZoneRules {
  const initial = minutes(data.types[0]?.offset ?? 0);
  const explicit: ZoneChange[] = [];
  let from = initial;
  data.times.forEach((at, i) => {
    const type = data.types[data.typeIdx[i]!]!;
    const to = minutes(type.offset);
    if (to !== from) explicit.push({ at, from, to, isDst: type.isDst, abbr: type.abbr });
    from = to;
  });
  let footer: PosixTz | undefined;
  try {
    footer = data.footer === '' ? undefined : parsePosixTz(data.footer);
  } catch {
    footer = undefined;
  }
  return { initial, explicit, footer };
}

const cache = new Map<string, ZoneRules | null>();

/** The rules of an IANA zone from the zoneinfo folder (config `zoneinfoDir`), cached; `null` without a readable file. */
export function zoneRules(canonicalZone: string): ZoneRules | null {
  let rules = cache.get(canonicalZone);
  if (rules === undefined) {
    const file = readZoneFile(canonicalZone);
    try {
      rules = file === null ? null : rulesFromTzif(readTzif(file));
    } catch {
      rules = null;
    }
    cache.set(canonicalZone, rules);
  }
  return rules;
}

/** The footer rule's changes whose local date falls in `year` (minutes), in time order. */
export function ruleChanges(rules: ZoneRules, year: number): ZoneChange[] {
  if (rules.footer === undefined) return [];
  return posixChanges(rules.footer, year).map((c) => ({ ...c, from: minutes(c.from), to: minutes(c.to) }));
}

/** The footer's changes in `year` that come after the file's last explicit one. */
export function footerChanges(rules: ZoneRules, year: number): ZoneChange[] {
  const last = rules.explicit.at(-1)?.at ?? -Infinity;
  return ruleChanges(rules, year).filter((c) => c.at > last);
}

const sameChange = (a: ZoneChange, b: ZoneChange) => a.at === b.at && a.from === b.from && a.to === b.to;
const yearOf = (ms: number) => new Date(ms).getUTCFullYear();

/**
 * The first year from which the footer's rule gives every change. Files list the rule's changes explicitly up to
 * 2037 (zic's "fat" output and 32-bit readers), so the era starts where the explicit changes begin to follow it.
 */
export function footerEra(rules: ZoneRules): number {
  const { explicit } = rules;
  let i = explicit.length;
  while (i > 0 && ruleChanges(rules, yearOf(explicit[i - 1]!.at)).some((c) => sameChange(c, explicit[i - 1]!))) i--;
  if (i === explicit.length) return explicit.length === 0 ? -Infinity : yearOf(explicit.at(-1)!.at) + 1;
  // A year that also holds a change of the old rules (2007 in New York) is not yet the rule's.
  const year = yearOf(explicit[i]!.at);
  const first = ruleChanges(rules, year)[0];
  return i > 0 && (yearOf(explicit[i - 1]!.at) === year || first === undefined || !sameChange(first, explicit[i]!))
    ? year + 1
    : year;
}

/** Every change with `from <= at < to` (UTC ms), in time order. */
export function changesBetween(rules: ZoneRules, from: number, to: number): ZoneChange[] {
  const out = rules.explicit.filter((c) => c.at >= from && c.at < to);
  if (rules.footer?.dst === undefined) return out;
  const first = Math.max(
    new Date(from).getUTCFullYear() - 1,
    new Date(rules.explicit.at(-1)?.at ?? from).getUTCFullYear() - 1,
  );
  for (let y = first; y <= new Date(to).getUTCFullYear() + 1; y++) {
    for (const c of footerChanges(rules, y)) if (c.at >= from && c.at < to) out.push(c);
  }
  return out;
}

/** The offset (minutes) the rules give at the instant `at`. */
export function ruleOffsetAt(rules: ZoneRules, at: number): number {
  const y = new Date(at).getUTCFullYear();
  const before = changesBetween(rules, Math.min(at, Date.UTC(y - 1, 0, 1)), at + 1);
  if (before.length > 0) return before.at(-1)!.to;
  // No change in the year before: the last explicit change before `at`, or the footer's standard offset after them.
  const prior = rules.explicit.filter((c) => c.at <= at).at(-1);
  if (rules.footer !== undefined && at > (rules.explicit.at(-1)?.at ?? -Infinity))
    return minutes(rules.footer.std.offset);
  return prior?.to ?? rules.initial;
}
