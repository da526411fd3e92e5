import { FILTER_NAMES, type ArticleMetadata, type FilterLists } from '../api/types.ts';
import type { ExaminedInterval, ExaminationTotals, MergedArticle } from '../search/article-merge.ts';
import { formatIntervals } from '../search/article-merge.ts';
import { describeMatching, matchingFields, type MatchingOptions } from '../search/matching-options.ts';
import type { SearchState } from '../search/url-state.ts';
import { toCsv } from './csv.ts';
import { xlsxWorkbook, type XlsxCell } from './xlsx.ts';

/**
 * 2: matches carry the first occurrence's context; concordance and counts-per-month exports.
 * 3: every export records the matching options (a `matching` column; JSON `matching`: the API's `case`/`whole_word`).
 */
export const EXPORT_FORMAT_VERSION = 3;

export type ExportScope = 'examined_matches' | 'loaded_sample';

/** What every export records about the search it comes from (spec §1: release, query, crawl-year range, scope). */
export interface ExportContext {
  readonly release: string;
  readonly query: string;
  readonly index: string;
  readonly yearMin: number | null;
  readonly yearMax: number | null;
  readonly filters: FilterLists;
  readonly matching: MatchingOptions;
  /** ISO 8601 time of the export. */
  readonly exportedAt: string;
}

/** What an export records about `state`, searched on `release`, now. */
export function exportContextOf(state: SearchState, release: string): ExportContext {
  const { query, index, yearMin, yearMax, filters, matching } = state;
  return { release, query, index, yearMin, yearMax, filters, matching, exportedAt: new Date().toISOString() };
}

/** One occurrence whose context the page loaded (get_doc) and showed. */
export interface LoadedOccurrence {
  readonly shardId: string;
  readonly rank: number;
  readonly year: string;
  readonly docIx: number;
  /** The context text around the match, as shown. */
  readonly snippet: string;
  readonly metadata: ArticleMetadata;
}

export interface ExaminedExportInput {
  readonly articles: readonly MergedArticle[];
  readonly intervals: readonly ExaminedInterval[];
  readonly totals: ExaminationTotals;
  /** The context of each article's first examined occurrence, by `firstContextKey`; missing articles get empty cells. */
  readonly contexts?: ReadonlyMap<string, MatchContext>;
}

/** The text around one occurrence, as the concordance shows it. */
export interface MatchContext {
  readonly left: string;
  readonly match: string;
  readonly right: string;
}

/** The key of an occurrence in `ExaminedExportInput.contexts`. */
export function firstContextKey(shardId: string, rank: number): string {
  return `${shardId}#${rank}`;
}

/** Metadata columns of the CSV exports, in order. Identifiers first: they are what a reader looks up later. */
export const METADATA_COLUMNS = [
  'warc_record_id',
  'text_xxhash64',
  'title',
  'url',
  'sitename',
  'hostname',
  'publish_date',
  'warc_date',
  'language',
  'lang',
  'country',
  'country_source',
  'country_confidence',
  'country_tld',
  'iptc_topic',
] as const;

/** The filters in one cell: `languages=de;en & topics=politics`, empty without filters. */
export function filterText(filters: FilterLists): string {
  return FILTER_NAMES.filter((n) => filters[n].length > 0)
    .map((n) => `${n}=${filters[n].join(';')}`)
    .join(' & ');
}

export function metadataCells(m: ArticleMetadata): (string | null)[] {
  return METADATA_COLUMNS.map((c) => {
    const v = m[c];
    return v === null || v === undefined ? null : String(v);
  });
}

function header(ctx: ExportContext, scope: ExportScope) {
  return {
    format: 'news-search-export',
    format_version: EXPORT_FORMAT_VERSION,
    scope,
    release: ctx.release,
    query: ctx.query,
    index: ctx.index,
    crawl_year_range: { year_min: ctx.yearMin, year_max: ctx.yearMax },
    matching: matchingJson(ctx.matching),
    exported_at: ctx.exportedAt,
  };
}

/** The matching options as the API names them, defaults spelled out so a reader need not know them. */
export function matchingJson(m: MatchingOptions): { case: 'sensitive' | 'insensitive'; whole_word: boolean } {
  const f = matchingFields(m);
  return { case: f.case ?? 'sensitive', whole_word: f.whole_word ?? false };
}

function filtersObject(filters: FilterLists): Record<string, string[]> {
  return Object.fromEntries(FILTER_NAMES.map((n) => [n, [...filters[n]]]));
}

/** JSON export of the examined matches: metadata exactly as the API sent it (hashes stay strings). */
export function examinedJson(ctx: ExportContext, input: ExaminedExportInput): string {
  return JSON.stringify(
    {
      ...header(ctx, 'examined_matches'),
      filters: filtersObject(ctx.filters),
      examined_intervals: input.intervals.map((i) => ({
        shard_id: i.shardId,
        rank_from: i.rankFrom,
        rank_to: i.rankTo,
      })),
      examined_occurrences: input.totals.examinedOccurrences,
      matching_occurrences: input.totals.matchingOccurrences,
      matching_articles: input.totals.matchingArticles,
      articles: input.articles.map((a) => {
        const c = input.contexts?.get(firstContextKey(a.firstShardId, a.firstRank));
        return {
          year: a.year,
          doc_ix: a.docIx,
          occurrences: a.occurrences,
          first_shard_id: a.firstShardId,
          first_rank: a.firstRank,
          ...(c === undefined ? {} : { first_context: { left: c.left, match: c.match, right: c.right } }),
          metadata: a.metadata,
        };
      }),
    },
    null,
    2,
  );
}

export const EXAMINED_CSV_HEADER = [
  'export_scope',
  'release',
  'query',
  'index',
  'year_min',
  'year_max',
  'matching',
  'filters',
  'examined_intervals',
  'examined_occurrences',
  'matching_occurrences',
  'matching_articles',
  'year',
  'doc_ix',
  'occurrences',
  'first_shard_id',
  'first_rank',
  ...METADATA_COLUMNS,
  'first_left_context',
  'first_match',
  'first_right_context',
] as const;

/** CSV export of the examined matches: one row per merged article, each row carrying the search context. */
export function examinedCsv(ctx: ExportContext, input: ExaminedExportInput): string {
  return toCsv(EXAMINED_CSV_HEADER, examinedRows(ctx, input));
}

/** The same rows as the CSV in an XLSX workbook, where identifiers stay exact text without any prefix. */
export function examinedXlsx(ctx: ExportContext, input: ExaminedExportInput): Promise<Uint8Array> {
  return xlsxWorkbook('matching articles', EXAMINED_CSV_HEADER, examinedRows(ctx, input));
}

function examinedRows(ctx: ExportContext, input: ExaminedExportInput): XlsxCell[][] {
  const common = [
    'examined_matches',
    ctx.release,
    ctx.query,
    ctx.index,
    ctx.yearMin,
    ctx.yearMax,
    describeMatching(ctx.matching),
    filterText(ctx.filters),
    formatIntervals(input.intervals),
    input.totals.examinedOccurrences,
    input.totals.matchingOccurrences,
    input.totals.matchingArticles,
  ];
  return input.articles.map((a) => {
    const c = input.contexts?.get(firstContextKey(a.firstShardId, a.firstRank));
    return [
      ...common,
      a.year,
      a.docIx,
      a.occurrences,
      a.firstShardId,
      a.firstRank,
      ...metadataCells(a.metadata),
      c?.left,
      c?.match,
      c?.right,
    ];
  });
}

/** JSON export of the loaded sample: the occurrences whose context the page showed. */
export function sampleJson(ctx: ExportContext, sample: readonly LoadedOccurrence[]): string {
  return JSON.stringify(
    {
      ...header(ctx, 'loaded_sample'),
      filters: filtersObject(ctx.filters),
      sample: sample.map((s) => ({
        shard_id: s.shardId,
        rank: s.rank,
        year: s.year,
        doc_ix: s.docIx,
        snippet: s.snippet,
        metadata: s.metadata,
      })),
    },
    null,
    2,
  );
}

export const SAMPLE_CSV_HEADER = [
  'export_scope',
  'release',
  'query',
  'index',
  'year_min',
  'year_max',
  'matching',
  'filters',
  'shard_id',
  'rank',
  'year',
  'doc_ix',
  ...METADATA_COLUMNS,
  'snippet',
] as const;

export function sampleCsv(ctx: ExportContext, sample: readonly LoadedOccurrence[]): string {
  const common = [
    'loaded_sample',
    ctx.release,
    ctx.query,
    ctx.index,
    ctx.yearMin,
    ctx.yearMax,
    describeMatching(ctx.matching),
    filterText(ctx.filters),
  ];
  return toCsv(
    SAMPLE_CSV_HEADER,
    sample.map((s) => [...common, s.shardId, s.rank, s.year, s.docIx, ...metadataCells(s.metadata), s.snippet]),
  );
}

/**
 * A file name for a download: `news-<what>-<phrase>.<ext>` (e.g. `news-matching-articles-oil-prices.csv`), safe on
 * every file system.
 */
export function exportFileName(kind: string, query: string, ext: string): string {
  const slug = query
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .toLowerCase();
  return `news-${kind}${slug ? `-${slug}` : ''}.${ext}`;
}
