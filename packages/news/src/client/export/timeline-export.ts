import { measureValue, type TimelineSeries } from '../timeline/timeline-data.ts';
import { toCsv } from './csv.ts';

/** What the counts-per-month export records about the chart it comes from. */
export interface TimelineExportContext {
  readonly release: string;
  readonly index: string;
  readonly yearMin: number | null;
  readonly yearMax: number | null;
  /** The matching options in words (`describeMatching`). */
  readonly matching: string;
  /** The metadata filters (`filter=a;b & …`), empty without filters: then every article counts. */
  readonly filters: string;
}

export const TIMELINE_CSV_HEADER = [
  'export_scope',
  'release',
  'index',
  'year_min',
  'year_max',
  'matching',
  'filters',
  'phrase',
  'period',
  'occurrences',
  'occurrences_sampled',
  'articles_in_period',
  'text_bytes_in_period',
  'per_million_bytes',
  'per_1000_articles',
] as const;

/** Rates to 10 significant digits: enough to recompute, without float noise such as 0.30000000000000004. */
const rate = (v: number | null): string => (v === null ? '' : String(Number(v.toPrecision(10))));

/**
 * "Counts per month": one row per phrase and crawl period (every period, zeros included, not only the zoomed
 * ones), with the period's articles and text bytes so a reader can recompute the rates.
 * @example timelineCsv(ctx, [{phrase: 'oil', periods}]) // '\uFEFF"export_scope",…\r\n"counts_per_month",…'
 */
export function timelineCsv(ctx: TimelineExportContext, series: readonly TimelineSeries[]): string {
  return toCsv(
    TIMELINE_CSV_HEADER,
    series.flatMap((s) =>
      s.periods.map((p) => [
        'counts_per_month',
        ctx.release,
        ctx.index,
        ctx.yearMin,
        ctx.yearMax,
        ctx.matching,
        ctx.filters,
        s.phrase,
        p.period,
        p.occurrences,
        s.sampled === true ? 'yes' : 'no',
        p.articles,
        p.text_bytes,
        rate(measureValue(p, 'per_million_bytes')),
        rate(measureValue(p, 'per_1000_articles')),
      ]),
    ),
  );
}
