import { endOfDay, formatWall, makeWall, parseDateTime, startOfDay, utcToWall } from '../time/index.ts';

export interface WindowInput {
  start_date?: string | number; end_date?: string | number;
  starts_before?: string | number; starts_after?: string | number; ends_before?: string | number; ends_after?: string | number;
  strict: boolean;
  include: boolean;
}

export interface DateWindow {
  startGte?: string; endLte?: string; startLt?: string; startGt?: string; endLt?: string; endGt?: string;
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
  const wall = (v: string | number) => utcToWall(parseDateTime(v, input.strict ? 'UTC' : siteZone, now)!, siteZone);
  const out: DateWindow = {};
  if (input.start_date !== undefined) {
    const w = wall(input.start_date);
    out.startGte = formatWall(input.strict ? w : startOfDay(w));
  } else if (!anyRelative) {
    out.startGte = formatWall(makeWall(today.y, today.mo, today.d - 1));
  }
  if (input.end_date !== undefined) {
    const w = wall(input.end_date);
    out.endLte = formatWall(input.strict ? w : endOfDay(w));
  } else if (!anyRelative) {
    out.endLte = formatWall(endOfDay(makeWall(today.y, today.mo + 24, today.d)));
  }
  const rel = (v: string | number | undefined) => {
    if (v === undefined) return undefined;
    const w = wall(v);
    return formatWall(input.strict ? w : endOfDay(w));
  };
  const [sb, sa, eb, ea] = [rel(input.starts_before), rel(input.starts_after), rel(input.ends_before), rel(input.ends_after)];
  if (sb !== undefined) out.startLt = sb;
  if (sa !== undefined) out.startGt = sa;
  if (eb !== undefined) out.endLt = eb;
  if (ea !== undefined) out.endGt = ea;
  return out;
}
