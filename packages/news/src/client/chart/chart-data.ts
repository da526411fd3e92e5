import type { FindResponse } from '../api/types.ts';

/** One bar: a crawl month (`YYYY-MM`) or, for yearly shards, a crawl year (`YYYY`). */
export interface ChartBar {
  readonly period: string;
  readonly count: number;
}

export interface ChartData {
  readonly bars: readonly ChartBar[];
  readonly max: number;
  readonly total: number;
  /** True when the shards are yearly, so bars are years rather than months. */
  readonly yearly: boolean;
}

/** Months are filled in between the first and last bar only up to this span; beyond it the chart shows shards as they are. */
const MAX_FILLED_MONTHS = 600;

function nextMonth(period: string): string {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** A period split into parts has shards `<period>.p001`, `<period>.p002`, …: one bar per period sums them. */
const periodOf = (shardId: string): string => shardId.replace(/\.p\d{3}$/, '');

/**
 * Occurrences per crawl month from a find answer (the counts per shard are the widths of its rank intervals; parts
 * of a month add up). Months without a shard between the first and last one are shown as zero, so the time axis is even.
 * @example chartData({shard_ids:['2024-01','2024-03'], segment_by_shard:[[0,4],[9,10]], ...}).bars
 *   // [{period:'2024-01',count:4},{period:'2024-02',count:0},{period:'2024-03',count:1}]
 */
export function chartData(found: Pick<FindResponse, 'shard_ids' | 'segment_by_shard'>): ChartData {
  const counts = new Map<string, number>();
  found.shard_ids.forEach((id, i) => {
    const seg = found.segment_by_shard[i];
    const n = seg === undefined ? 0 : Math.max(0, seg[1] - seg[0]);
    counts.set(periodOf(id), (counts.get(periodOf(id)) ?? 0) + n);
  });
  const periods = [...counts.keys()].sort();
  const monthly = periods.length > 0 && periods.every((p) => /^\d{4}-\d{2}$/.test(p));
  const bars: ChartBar[] = [];
  const first = periods[0];
  const last = periods.at(-1);
  if (monthly && first !== undefined && last !== undefined) {
    for (let p = first, steps = 0; steps < MAX_FILLED_MONTHS; p = nextMonth(p), steps++) {
      bars.push({ period: p, count: counts.get(p) ?? 0 });
      if (p === last) break;
    }
    if (bars.at(-1)?.period !== last) {
      bars.length = 0;
      for (const p of periods) bars.push({ period: p, count: counts.get(p) ?? 0 });
    }
  } else {
    for (const p of periods) bars.push({ period: p, count: counts.get(p) ?? 0 });
  }
  const max = bars.reduce((m, b) => Math.max(m, b.count), 0);
  const total = bars.reduce((s, b) => s + b.count, 0);
  return { bars, max, total, yearly: !monthly && periods.length > 0 };
}

/** Round axis ticks (1, 2, 5 × 10^k) from 0 to at least `max`. */
export function axisTicks(max: number, target = 4): number[] {
  if (max <= 0) return [0];
  const raw = max / target;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * pow).find((s) => s >= raw) ?? 10 * pow;
  const ticks: number[] = [];
  for (let t = 0; t < max + step; t += step) ticks.push(t);
  return ticks;
}
