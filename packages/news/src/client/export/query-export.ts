import type { QueryArticle } from '../api/types.ts';
import { selection, SELECTION_COLUMNS, type AnalysisTable } from './analysis-export.ts';
import { METADATA_COLUMNS, metadataCells, type ExportContext } from './export-data.ts';

/** Rows a query-language export loads at most: 100 pages of the search's largest page. */
export const QUERY_EXPORT_MAX = 10_000;

/** What the export records about the answer besides the search: how it counted, and how many there are in all. */
export interface QueryExportAnswer {
  /** The query as the server read it (canonical text form). */
  readonly canonical: string;
  readonly dedupe: 'none' | 'exact' | 'near';
  /** False when the counts are estimates from a sample (the rows are then the matches the sample saw). */
  readonly exact: boolean;
  readonly articles: number;
  /** With dedupe: the stories among them. */
  readonly stories: number | null;
}

export const QUERY_EXPORT_HEADER = [
  'export_scope',
  ...SELECTION_COLUMNS,
  'dedupe',
  'counts_exact',
  'matching_articles',
  'matching_stories',
  'shard_id',
  'year',
  'doc_ix',
  'copies',
  ...METADATA_COLUMNS,
  'first_term',
  'first_left_context',
  'first_match',
  'first_right_context',
] as const;

/**
 * The matching articles of a query-language search, one row per article (with dedupe: per story, its first article,
 * with the story's matching copies), each row carrying the search and how it was counted.
 */
export function queryArticlesTable(
  ctx: ExportContext,
  answer: QueryExportAnswer,
  articles: readonly QueryArticle[],
): AnalysisTable {
  const common = [
    answer.dedupe === 'none' ? 'query_articles' : 'query_stories',
    // The query as the server read it (canonical form), not as typed.
    ...selection({ ...ctx, query: answer.canonical }),
    answer.dedupe,
    answer.exact ? 'yes' : 'no',
    answer.articles,
    answer.stories,
  ];
  return {
    sheet: answer.dedupe === 'none' ? 'matching articles' : 'matching stories',
    header: QUERY_EXPORT_HEADER,
    rows: articles.map((a) => [
      ...common,
      a.shard_id,
      a.year,
      a.doc_ix,
      a.copies ?? null,
      ...metadataCells(a.metadata ?? {}),
      a.first.term,
      a.first.left,
      a.first.match,
      a.first.right,
    ]),
  };
}
