/**
 * Calendar time for the timeline's x axis (issue 29 bug 2): a period sits where its date falls, so 83 missing
 * months take 83 months of width, and the stretches without a crawled period are reported as gaps.
 */

/** A crawl period ("2016-05" or a crawl year "2016") as a month count since year 0; NaN for anything else. */
export function periodMonth(period: string): number {
  const m = /^(\d{4})(?:-(\d{2}))?$/.exec(period);
  if (m === null) return Number.NaN;
  return Number(m[1]) * 12 + (m[2] === undefined ? 0 : Number(m[2]) - 1);
}

/** Months from one period to the next: 12 for crawl years, else 1. */
function step(periods: readonly string[]): number {
  return periods.length > 0 && periods.every((p) => /^\d{4}$/.test(p)) ? 12 : 1;
}

/**
 * Each period's horizontal position as a fraction (0–1) of the axis, by calendar date; one period sits in the middle.
 * @example periodPositions(['2016-05', '2023-04', '2023-05']) // [0, 0.9880952…, 1]
 */
export function periodPositions(periods: readonly string[]): number[] {
  const months = periods.map(periodMonth);
  const first = months[0] ?? 0;
  const span = (months.at(-1) ?? 0) - first;
  return months.map((m) => (span > 0 ? (m - first) / span : 0.5));
}

/** A stretch of calendar time between two shown periods with no crawled period of its own. */
export interface CalendarGap {
  /** Index of the period before the gap. */
  readonly after: number;
  /** Periods missing, in the periods' unit (months or years). */
  readonly missing: number;
}

/**
 * The gaps between consecutive periods: where the next one is more than one month (or crawl year) later.
 * @example calendarGaps(['2016-05', '2023-04', '2023-05']) // [{ after: 0, missing: 82 }]
 */
export function calendarGaps(periods: readonly string[]): CalendarGap[] {
  const unit = step(periods);
  const months = periods.map(periodMonth);
  const gaps: CalendarGap[] = [];
  for (let i = 0; i + 1 < months.length; i++) {
    const missing = ((months[i + 1] as number) - (months[i] as number)) / unit - 1;
    if (missing > 0) gaps.push({ after: i, missing });
  }
  return gaps;
}

/**
 * The period nearest a fraction of the axis (the cursor under the pointer).
 * @example nearestPeriod([0, 0.99, 1], 0.4) // 0
 */
export function nearestPeriod(positions: readonly number[], fraction: number): number {
  let best = 0;
  positions.forEach((p, i) => {
    if (Math.abs(p - fraction) < Math.abs((positions[best] ?? 0) - fraction)) best = i;
  });
  return best;
}
