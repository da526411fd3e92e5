import type { ConcordanceLine } from '../api/research-types.ts';
import { describeMatching } from '../search/matching-options.ts';
import { EXPORT_FORMAT_VERSION, matchingJson, type ExportContext } from './export-data.ts';
import { toCsv } from './csv.ts';

/** A concordance line with the shard it came from (ranks are per shard). */
export interface ConcordanceRow extends ConcordanceLine {
  readonly shardId: string;
}

export const CONCORDANCE_CSV_HEADER = [
  'export_scope',
  'release',
  'query',
  'index',
  'year_min',
  'year_max',
  'matching',
  'order',
  'shard_id',
  'rank',
  'year',
  'doc_ix',
  'offset',
  'left_context',
  'match',
  'right_context',
  'title',
  'hostname',
] as const;

/** Set when the export is the whole concordance rather than one page; the total says whether the bound cut it. */
export interface WholeConcordance {
  readonly lines: 'all';
  /** The search's occurrences (candidates under whole words); more than the lines when the bound cut the list. */
  readonly totalOccurrences: number;
}

/**
 * The concordance page as shown (in the chosen order), or the whole concordance (`export_scope` `concordance_all`):
 * one row per occurrence with its left context, match and right context as separate columns, and what identifies
 * the article.
 */
export function concordanceCsv(
  ctx: ExportContext,
  order: string,
  rows: readonly ConcordanceRow[],
  whole?: WholeConcordance,
): string {
  return toCsv(
    CONCORDANCE_CSV_HEADER,
    rows.map((r) => [
      whole === undefined ? 'concordance' : 'concordance_all',
      ctx.release,
      ctx.query,
      ctx.index,
      ctx.yearMin,
      ctx.yearMax,
      describeMatching(ctx.matching),
      order,
      r.shardId,
      r.rank,
      r.year,
      r.doc_ix,
      r.offset,
      r.left,
      r.match,
      r.right,
      r.title,
      r.hostname,
    ]),
  );
}

export function concordanceJson(
  ctx: ExportContext,
  order: string,
  rows: readonly ConcordanceRow[],
  whole?: WholeConcordance,
): string {
  return JSON.stringify(
    {
      format: 'news-search-export',
      format_version: EXPORT_FORMAT_VERSION,
      scope: whole === undefined ? 'concordance' : 'concordance_all',
      // The whole concordance: how many occurrences the search has, so a reader sees whether the bound cut the list.
      ...(whole === undefined ? {} : { total_occurrences: whole.totalOccurrences }),
      release: ctx.release,
      query: ctx.query,
      index: ctx.index,
      crawl_year_range: { year_min: ctx.yearMin, year_max: ctx.yearMax },
      // The contexts API takes no metadata filters: the concordance lists every occurrence of the search.
      matching: matchingJson(ctx.matching),
      metadata_filters_applied: false,
      exported_at: ctx.exportedAt,
      order,
      lines: rows.map((r) => ({
        shard_id: r.shardId,
        rank: r.rank,
        year: r.year,
        doc_ix: r.doc_ix,
        offset: r.offset,
        left: r.left,
        match: r.match,
        right: r.right,
        title: r.title,
        hostname: r.hostname,
      })),
    },
    null,
    2,
  );
}
