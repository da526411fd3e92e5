import type { TimelinePeriod } from '../api/research-types.ts';

/** What the chart's y axis shows: normalised rates, so a big crawl month does not look like a trend, or raw counts. */
export type TimelineMeasure =
  'per_million_words' | 'share_of_articles' | 'per_million_bytes' | 'per_1000_articles' | 'raw';

export const TIMELINE_MEASURES: readonly TimelineMeasure[] = [
  'per_million_words',
  'share_of_articles',
  'per_million_bytes',
  'per_1000_articles',
  'raw',
];

/** Periods a moving average spans: none (1), or 3, 5 or 12 periods ending at each one. */
export const SMOOTHING_SPANS = [1, 3, 5, 12] as const;
export type SmoothingSpan = (typeof SMOOTHING_SPANS)[number];

/** A 95% interval of a period's count (an estimate from a sample), in the count's own unit. */
export interface CountInterval {
  readonly low: number;
  readonly high: number;
}

/** Phrases compared in one chart: the search's own and up to four more (five colours stay distinguishable). */
export const MAX_PHRASES = 5;

/** One phrase's timeline as the API answered it. */
export interface TimelineSeries {
  readonly phrase: string;
  readonly periods: readonly TimelinePeriod[];
  /** The occurrences are a sampled estimate (a filtered series of a frequent phrase). */
  readonly sampled?: boolean;
  /** 95% intervals of periods whose counts are estimates, by period; drawn as a band. */
  readonly intervals?: ReadonlyMap<string, CountInterval>;
}

export interface TimelinePoint {
  readonly period: string;
  readonly occurrences: number;
  readonly articles: number;
  readonly textBytes: number;
  /** The measured value; null when the period has nothing to divide by (no articles, words or article counts). */
  readonly value: number | null;
  /** The 95% interval of the value when it is an estimate. */
  readonly band: CountInterval | null;
}

export interface TimelineChart {
  readonly measure: TimelineMeasure;
  /** The periods shown: from the first to the last one where any phrase occurs. */
  readonly periods: readonly string[];
  readonly series: readonly { readonly phrase: string; readonly points: readonly TimelinePoint[] }[];
  /** Largest value of any phrase in the shown periods (0 when nothing occurs). */
  readonly max: number;
  /** Periods are crawl years (yearly shards) rather than months. */
  readonly yearly: boolean;
  /** Periods each value averages (1: none). */
  readonly smoothing: SmoothingSpan;
}

/** What a measure divides by, from the timeline's period (words and article shares are null on older releases). */
type MeasuredPeriod = Pick<TimelinePeriod, 'occurrences' | 'articles' | 'text_bytes'> &
  Partial<Pick<TimelinePeriod, 'words' | 'articles_with_match'>>;

/** A period's value under a measure. @example measureValue({occurrences: 3, articles: 1500, text_bytes: 2e6}, 'per_million_bytes') // 1.5 */
export function measureValue(p: MeasuredPeriod, measure: TimelineMeasure): number | null {
  switch (measure) {
    case 'raw':
      return p.occurrences;
    case 'per_million_words':
      return p.words !== null && p.words !== undefined && p.words > 0 ? (p.occurrences * 1_000_000) / p.words : null;
    case 'share_of_articles':
      // Articles with a match, as a percentage of the period's articles (Media Cloud's attention measure).
      return p.articles_with_match !== null && p.articles_with_match !== undefined && p.articles > 0
        ? (p.articles_with_match * 100) / p.articles
        : null;
    case 'per_million_bytes':
      return p.text_bytes > 0 ? (p.occurrences * 1_000_000) / p.text_bytes : null;
    case 'per_1000_articles':
      return p.articles > 0 ? (p.occurrences * 1000) / p.articles : null;
  }
}

/** Axis and legend wording of each measure. */
export function measureLabel(measure: TimelineMeasure): string {
  switch (measure) {
    case 'raw':
      return 'occurrences';
    case 'per_million_words':
      return 'occurrences per million words';
    case 'share_of_articles':
      return '% of articles with a match';
    case 'per_million_bytes':
      return 'occurrences per million bytes of text';
    case 'per_1000_articles':
      return 'occurrences per 1,000 articles';
  }
}

/**
 * The chart of several phrases' timelines under one measure, zoomed to the periods with data: leading and trailing
 * periods where no phrase occurs are left out (zeros between them stay: a gap is data).
 * @example timelineChart([{phrase: 'oil', periods}], 'raw').periods // ['1987-02', '1987-03']
 */
export function timelineChart(
  series: readonly TimelineSeries[],
  measure: TimelineMeasure,
  smoothing: SmoothingSpan = 1,
): TimelineChart {
  const all = [...new Set(series.flatMap((s) => s.periods.map((p) => p.period)))].sort();
  const occurs = (period: string) =>
    series.some((s) => s.periods.some((p) => p.period === period && p.occurrences > 0));
  const first = all.findIndex(occurs);
  const last = all.findLastIndex(occurs);
  const periods = first === -1 ? [] : all.slice(first, last + 1);
  const shown = series.map((s) => {
    const byPeriod = new Map(s.periods.map((p) => [p.period, p]));
    const points = periods.map((period): TimelinePoint => {
      const p = byPeriod.get(period) ?? { occurrences: 0, articles: 0, text_bytes: 0 };
      const interval = s.intervals?.get(period);
      // An interval of the count becomes one of the value by the same measure (the divisor is exact).
      const low = interval === undefined ? null : measureValue({ ...p, occurrences: interval.low }, measure);
      const high = interval === undefined ? null : measureValue({ ...p, occurrences: interval.high }, measure);
      return {
        period,
        occurrences: p.occurrences,
        articles: p.articles,
        textBytes: p.text_bytes,
        value: measureValue(p, measure),
        band: low === null || high === null ? null : { low, high },
      };
    });
    return { phrase: s.phrase, points: smoothing > 1 ? movingAverage(points, smoothing) : points };
  });
  const max = shown.reduce((m, s) => s.points.reduce((n, p) => Math.max(n, p.band?.high ?? 0, p.value ?? 0), m), 0);
  return {
    measure,
    periods,
    series: shown,
    max,
    yearly: periods.length > 0 && periods.every((p) => /^\d{4}$/.test(p)),
    smoothing,
  };
}

/**
 * Each value replaced by the mean of the values of the `span` periods ending at it (those without a value left out;
 * fewer at the start); a period without a value keeps none. Bands are averaged the same way.
 * @example movingAverage(points with values [1, 2, 3, 4], 3).map((p) => p.value) // [1, 1.5, 2, 3]
 */
export function movingAverage(points: readonly TimelinePoint[], span: number): TimelinePoint[] {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return points.map((p, i) => {
    if (p.value === null) return p;
    const window = points.slice(Math.max(0, i - span + 1), i + 1).filter((q) => q.value !== null);
    const bands = window.map((q) => q.band ?? { low: q.value as number, high: q.value as number });
    return {
      ...p,
      value: mean(window.map((q) => q.value as number)),
      band: p.band === null ? null : { low: mean(bands.map((b) => b.low)), high: mean(bands.map((b) => b.high)) },
    };
  });
}

/** Round axis ticks (1, 2, 5 × 10^k, fractions too) from 0 to at least `max`, computed as multiples (no float drift). */
export function timelineTicks(max: number, target = 4): number[] {
  if (!(max > 0)) return [0];
  const raw = max / target;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((f) => f * pow).find((s) => s >= raw) ?? 10 * pow;
  const n = Math.ceil(max / step - 1e-9);
  return Array.from({ length: n + 1 }, (_, i) => Number((i * step).toPrecision(12)));
}

const rate = new Intl.NumberFormat('en', { maximumSignificantDigits: 3 });
const whole = new Intl.NumberFormat('en');

/** A value as the legend, tooltip and axis show it: whole counts with separators, rates to 3 significant digits. */
export function formatMeasure(value: number | null, measure: TimelineMeasure): string {
  if (value === null)
    return measure === 'per_million_words'
      ? 'no word count'
      : measure === 'share_of_articles'
        ? 'not counted'
        : 'no articles';
  return measure === 'raw' ? whole.format(value) : rate.format(value);
}

/**
 * A phrase's timeline restricted to articles matching metadata filters: the estimate's matching occurrences per
 * period over the period's own articles and text bytes (all articles crawled then, as the timeline reports them),
 * so the rates say how often the phrase occurs in matching articles per million bytes or 1,000 articles crawled.
 * A period the estimate does not list counts 0.
 * @example filteredPeriods(t.periods, [{ period: '1987-03', occurrences: 4 }])[0].occurrences // 4
 */
export function filteredPeriods(
  periods: readonly TimelinePeriod[],
  matching: readonly { readonly period: string; readonly occurrences: number }[],
): TimelinePeriod[] {
  const counts = new Map(matching.map((p) => [p.period, p.occurrences]));
  // The period's articles with a match are counted over all articles, not the filtered ones: no share then.
  return periods.map((p) => ({ ...p, occurrences: counts.get(p.period) ?? 0, articles_with_match: null }));
}
