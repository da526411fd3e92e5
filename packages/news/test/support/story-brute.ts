/**
 * Brute-force stories for the dedupe tests (issue 28): exact stories are groups of equal text; a story counts once,
 * in the crawl month of its first matching article (release order), among the articles in the selected years that
 * contain the query's bytes.
 */
export interface StoryArticle {
  readonly year: string;
  readonly text: Buffer;
  readonly meta: { readonly warc_date: string | null };
}

export interface BruteStories {
  readonly total: number;
  /** Stories per crawl month (`YYYY-MM`), months without any left out. */
  readonly perPeriod: Record<string, number>;
}

/** `articles` in release order; `yearMin`/`yearMax` null for no bound. */
export function bruteExactStories(
  articles: readonly StoryArticle[],
  query: string,
  yearMin: number | null,
  yearMax: number | null,
): BruteStories {
  const needle = Buffer.from(query);
  const firstPeriod = new Map<string, string>();
  for (const a of articles) {
    const y = Number(a.year);
    if ((yearMin !== null && y < yearMin) || (yearMax !== null && y > yearMax)) continue;
    if (a.text.indexOf(needle) === -1) continue;
    const key = a.text.toString('latin1');
    if (!firstPeriod.has(key)) firstPeriod.set(key, (a.meta.warc_date ?? '').slice(0, 7));
  }
  const perPeriod: Record<string, number> = {};
  for (const p of firstPeriod.values()) perPeriod[p] = (perPeriod[p] ?? 0) + 1;
  return { total: firstPeriod.size, perPeriod };
}

/** The non-zero `stories` of answer periods, by period. */
export function storiesByPeriod(periods: readonly { period: string; stories?: number }[]): Record<string, number> {
  return Object.fromEntries(periods.flatMap((p) => ((p.stories ?? 0) > 0 ? [[p.period, p.stories ?? 0]] : [])));
}

/** The articles of the input in release order (years, then doc_ix: month, then input order), as a reference. */
export function releaseOrder<T extends { warc_date: string }>(
  records: readonly T[],
): { record: T; year: string; docIx: number }[] {
  const sorted = records
    .map((record, i) => ({ record, i }))
    .sort((a, b) => a.record.warc_date.slice(0, 7).localeCompare(b.record.warc_date.slice(0, 7)) || a.i - b.i);
  const perYear = new Map<string, number>();
  return sorted.map(({ record }) => {
    const year = record.warc_date.slice(0, 4);
    const docIx = perYear.get(year) ?? 0;
    perYear.set(year, docIx + 1);
    return { record, year, docIx };
  });
}
