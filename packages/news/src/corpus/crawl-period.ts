/** The crawl period of an article, from its `warc_date` as recorded (no time-zone conversion). */
export interface CrawlPeriod {
  /** Four-digit year, e.g. `2024`. */
  readonly year: string;
  /** 1–12. */
  readonly month: number;
}

// The date as written decides the period: converting `2010-05-31T23:30:00+09:00` to UTC would move an article
// into another month than the one its source shows, and naive timestamps (most corpora) have no zone at all.
const DATE_PREFIX = /^(\d{4})-(\d{2})(?:-(\d{2}))?(?:$|[T ])/;

/** Years a crawl date may carry: the v1 API's year bounds. */
export const MIN_CRAWL_YEAR = 1900;
export const MAX_CRAWL_YEAR = 2200;

/**
 * Reads the crawl year and month from an ISO 8601 date or timestamp; a reason string when it is unusable.
 * @example parseCrawlPeriod('2024-05-03T18:19:08.72') // { year: '2024', month: 5 }
 */
export function parseCrawlPeriod(warcDate: string): CrawlPeriod | string {
  const m = DATE_PREFIX.exec(warcDate);
  if (!m) return `warc_date ${JSON.stringify(warcDate.slice(0, 40))} is not an ISO 8601 date (YYYY-MM-DD…)`;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = m[3] === undefined ? 1 : Number(m[3]);
  if (year < MIN_CRAWL_YEAR || year > MAX_CRAWL_YEAR) {
    return `warc_date year ${year} is outside ${MIN_CRAWL_YEAR}–${MAX_CRAWL_YEAR}`;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31)
    return `warc_date ${JSON.stringify(warcDate)} has no valid month/day`;
  return { year: String(year).padStart(4, '0'), month };
}
