import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { TimelinePeriod } from '../api/research-types.ts';
import {
  filteredPeriods,
  formatMeasure,
  measureValue,
  SMOOTHING_SPANS,
  timelineChart,
  timelineTicks,
  type TimelineSeries,
} from './timeline-data.ts';

const period = (p: string, occurrences: number, articles = 1000, bytes = 2_000_000): TimelinePeriod => ({
  period: p,
  year: p.slice(0, 4),
  occurrences,
  articles,
  text_bytes: bytes,
  shard_ids: [p],
});

describe('timeline measures', () => {
  it("divides by the period's text bytes or articles, and keeps raw counts", () => {
    const p = period('2024-01', 3, 1500, 2_000_000);
    expect(measureValue(p, 'per_million_bytes')).toBe(1.5);
    expect(measureValue(p, 'per_1000_articles')).toBe(2);
    expect(measureValue(p, 'raw')).toBe(3);
  });

  it('has no rate for a period without text (never a division by zero)', () => {
    const p = period('2024-01', 0, 0, 0);
    expect(measureValue(p, 'per_million_bytes')).toBeNull();
    expect(measureValue(p, 'per_1000_articles')).toBeNull();
    expect(formatMeasure(null, 'per_million_bytes')).toBe('no articles');
  });

  it('formats counts with separators and rates to three significant digits', () => {
    expect(formatMeasure(1234567, 'raw')).toBe('1,234,567');
    expect(formatMeasure(12.3456, 'per_million_bytes')).toBe('12.3');
    expect(formatMeasure(0.012345, 'per_1000_articles')).toBe('0.0123');
  });
});

describe('timeline chart', () => {
  it('zooms to the periods from the first to the last occurrence of any phrase, keeping gaps between', () => {
    const a: TimelineSeries = {
      phrase: 'a',
      periods: [
        period('2024-01', 0),
        period('2024-02', 2),
        period('2024-03', 0),
        period('2024-04', 0),
        period('2024-05', 0),
      ],
    };
    const b: TimelineSeries = {
      phrase: 'b',
      periods: [
        period('2024-01', 0),
        period('2024-02', 0),
        period('2024-03', 0),
        period('2024-04', 5),
        period('2024-05', 0),
      ],
    };
    const c = timelineChart([a, b], 'raw');
    expect(c.periods).toEqual(['2024-02', '2024-03', '2024-04']);
    expect(c.series.map((s) => s.points.map((p) => p.value))).toEqual([
      [2, 0, 0],
      [0, 0, 5],
    ]);
    expect(c.max).toBe(5);
    expect(c.yearly).toBe(false);
  });

  it('shows no periods when no phrase occurs, and years for yearly shards', () => {
    expect(timelineChart([{ phrase: 'x', periods: [period('2024-01', 0)] }], 'raw').periods).toEqual([]);
    expect(timelineChart([{ phrase: 'x', periods: [period('1987', 4), period('1988', 1)] }], 'raw').yearly).toBe(true);
  });

  it('keeps every occurrence inside the zoomed range and the maximum equal to the largest value', () => {
    const months = fc
      .uniqueArray(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 12 })
      .map((ms) =>
        ms.sort((x, y) => x - y).map((m) => `${2000 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`),
      );
    const counts = fc.array(fc.array(fc.nat(40), { minLength: 12, maxLength: 12 }), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(
        months,
        counts,
        fc.constantFrom('raw', 'per_million_bytes', 'per_1000_articles' as const),
        (ps, cs, measure) => {
          const series = cs.map((row, i) => ({
            phrase: `p${i}`,
            periods: ps.map((p, j) => period(p, row[j] ?? 0, 100 + j, 10_000 * (j + 1))),
          }));
          const chart = timelineChart(series, measure);
          const shownTotal = chart.series.reduce((s, x) => s + x.points.reduce((t, p) => t + p.occurrences, 0), 0);
          const total = series.reduce((s, x) => s + x.periods.reduce((t, p) => t + p.occurrences, 0), 0);
          expect(shownTotal).toBe(total);
          const values = chart.series.flatMap((s) => s.points.map((p) => p.value ?? 0));
          expect(chart.max).toBe(values.length === 0 ? 0 : Math.max(...values));
          if (chart.periods.length > 0) {
            expect(chart.series.some((s) => (s.points[0]?.occurrences ?? 0) > 0)).toBe(true);
            expect(chart.series.some((s) => (s.points.at(-1)?.occurrences ?? 0) > 0)).toBe(true);
          }
        },
      ),
    );
  });
});

describe('timeline axis ticks', () => {
  it('reach the maximum in round steps, fractions included, without float noise', () => {
    expect(timelineTicks(0)).toEqual([0]);
    expect(timelineTicks(37)).toEqual([0, 10, 20, 30, 40]);
    expect(timelineTicks(0.7)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    fc.assert(
      fc.property(fc.double({ min: 1e-6, max: 1e9, noNaN: true }), (max) => {
        const t = timelineTicks(max);
        expect(t[0]).toBe(0);
        expect(t.at(-1)).toBeGreaterThanOrEqual(max * (1 - 1e-9));
        expect(t.length).toBeLessThanOrEqual(11);
      }),
    );
  });
});

describe('filtered timeline', () => {
  it("takes each period's matching occurrences from the estimate and keeps the period's articles and bytes", () => {
    const all = [period('2024-01', 10, 500, 1_000_000), period('2024-02', 7), period('2024-03', 3)];
    const out = filteredPeriods(all, [
      { period: '2024-01', occurrences: 4 },
      { period: '2024-03', occurrences: 1 },
      { period: '2099-01', occurrences: 9 },
    ]);
    expect(out.map((p) => [p.period, p.occurrences, p.articles, p.text_bytes])).toEqual([
      ['2024-01', 4, 500, 1_000_000],
      ['2024-02', 0, 1000, 2_000_000],
      ['2024-03', 1, 1000, 2_000_000],
    ]);
    expect(measureValue(out[0]!, 'per_million_bytes')).toBe(4);
  });

  it("keeps the timeline's periods in order and sums to the estimate's counts over those periods", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 20 }),
        fc.array(fc.record({ month: fc.integer({ min: 0, max: 40 }), n: fc.nat(1000) }), { maxLength: 20 }),
        (months, est) => {
          const name = (m: number) => `20${String(10 + Math.floor(m / 12))}-${String((m % 12) + 1).padStart(2, '0')}`;
          const periods = [...months].sort((a, b) => a - b).map((m) => period(name(m), 5));
          const tally = new Map<string, number>();
          for (const e of est) tally.set(name(e.month), e.n); // the estimate lists each period once: last one wins
          const out = filteredPeriods(
            periods,
            [...tally].map(([p, occurrences]) => ({ period: p, occurrences })),
          );
          expect(out.map((p) => p.period)).toEqual(periods.map((p) => p.period));
          const expected = periods.reduce((sum, p) => sum + (tally.get(p.period) ?? 0), 0);
          expect(out.reduce((sum, p) => sum + p.occurrences, 0)).toBe(expected);
        },
      ),
    );
  });
});

describe('per million words, share of articles, smoothing and bands (issue 29)', () => {
  const period = (p: string, occurrences: number, extra: Partial<TimelinePeriod> = {}): TimelinePeriod => ({
    period: p,
    year: p.slice(0, 4),
    occurrences,
    articles: 200,
    text_bytes: 1_000_000,
    shard_ids: [p],
    words: 500_000,
    articles_with_match: 10,
    ...extra,
  });

  it('divides by the words of the period and gives the share of articles with a match in percent', () => {
    expect(measureValue(period('2024-01', 5), 'per_million_words')).toBe(10);
    expect(measureValue(period('2024-01', 5), 'share_of_articles')).toBe(5);
    expect(measureValue(period('2024-01', 5, { words: null }), 'per_million_words')).toBeNull();
    expect(measureValue(period('2024-01', 5, { articles_with_match: null }), 'share_of_articles')).toBeNull();
    expect(formatMeasure(null, 'share_of_articles')).toBe('not counted');
  });

  it('leaves a filtered series without a share (its matches are not counted over the filtered articles)', () => {
    const [p] = filteredPeriods([period('2024-01', 5)], [{ period: '2024-01', occurrences: 2 }]);
    expect(measureValue(p!, 'share_of_articles')).toBeNull();
    expect(measureValue(p!, 'per_million_words')).toBe(4);
  });

  it('averages each value over the periods ending at it, within their range; span 1 changes nothing', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: 1, maxLength: 30 }),
        fc.constantFrom(...SMOOTHING_SPANS),
        (counts, span) => {
          const periods = counts.map((c, i) => period(`2024-${String(i + 1).padStart(2, '0')}`, c));
          const series = [{ phrase: 'x', periods }];
          const plain = timelineChart(series, 'raw').series[0]!.points;
          const smooth = timelineChart(series, 'raw', span).series[0]!.points;
          if (span === 1) expect(smooth).toEqual(plain);
          smooth.forEach((p, i) => {
            const window = plain.slice(Math.max(0, i - span + 1), i + 1).map((q) => q.value as number);
            expect(p.value).toBeCloseTo(window.reduce((a, b) => a + b, 0) / window.length, 9);
            expect(p.value! >= Math.min(...window) - 1e-9 && p.value! <= Math.max(...window) + 1e-9).toBe(true);
          });
        },
      ),
    );
  });

  it('turns the interval of an estimated count into a band of the measured value', () => {
    const chart = timelineChart(
      [
        {
          phrase: 'x',
          periods: [period('2024-01', 50)],
          intervals: new Map([['2024-01', { low: 40, high: 60 }]]),
        },
      ],
      'per_million_bytes',
    );
    expect(chart.series[0]!.points[0]!.band).toEqual({ low: 40, high: 60 });
    expect(chart.max).toBe(60);
    expect(chart.smoothing).toBe(1);
  });
});
