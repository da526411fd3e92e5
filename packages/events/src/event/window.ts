import {
  endOfDay,
  formatWall,
  isStorableInstant,
  makeWall,
  parseDateTime,
  startOfDay,
  utcToWall,
} from '../time/index.ts';
import { invalidParam } from '../http/errors.ts';
import { OUT_OF_RANGE_DATE } from '../post/index.ts';

export interface WindowInput {
  start_date?: string | number;
  end_date?: string | number;
  starts_before?: string | number;
  starts_after?: string | number;
  ends_before?: string | number;
  ends_after?: string | number;
  strict: boolean;
  include: boolean;
}

export interface DateWindow {
  startGte?: string;
  endLte?: string;
  startLt?: string;
  startGt?: string;
  endLt?: string;
  endGt?: string;
}

/**
 * §5.1: the default window (start ≥ yesterday 00:00, end ≤ the day 24 months ahead 23:59:59), inclusive day
 * snapping unless strict, relative filters that drop the defaults, and `include` that ignores every date.
 */
export function computeWindow(input: WindowInput, siteZone: string, now: number): DateWindow {
  if (input.include) return {};
  const relative = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;
  const anyRelative = relative.some((k) => input[k] !== undefined);
  const today = utcToWall(now, siteZone);
  // Strict input is read as UTC and shown in site time; inclusive input is a site-local day.
  const wall = (v: string | number, name: string) => {
    const ms = parseDateTime(v, input.strict ? 'UTC' : siteZone, now);
    // The validator checked the text against the real clock; the window is computed against `now` in the site zone.
    if (!isStorableInstant(ms, siteZone)) throw invalidParam(name, OUT_OF_RANGE_DATE);
    return utcToWall(ms, siteZone);
  };
  const out: DateWindow = {};
  if (input.start_date !== undefined) {
    const w = wall(input.start_date, 'start_date');
    out.startGte = formatWall(input.strict ? w : startOfDay(w));
  } else if (!anyRelative) {
    out.startGte = formatWall(makeWall(today.y, today.mo, today.d - 1));
  }
  if (input.end_date !== undefined) {
    const w = wall(input.end_date, 'end_date');
    out.endLte = formatWall(input.strict ? w : endOfDay(w));
  } else if (!anyRelative) {
    out.endLte = formatWall(endOfDay(makeWall(today.y, today.mo + 24, today.d)));
  }
  const rel = (v: string | number | undefined, name: string) => {
    if (v === undefined) return undefined;
    const w = wall(v, name);
    return formatWall(input.strict ? w : endOfDay(w));
  };
  const [sb, sa, eb, ea] = relative.map((k) => rel(input[k], k));
  if (sb !== undefined) out.startLt = sb;
  if (sa !== undefined) out.startGt = sa;
  if (eb !== undefined) out.endLt = eb;
  if (ea !== undefined) out.endGt = ea;
  return out;
}
