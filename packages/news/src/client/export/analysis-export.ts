/**
 * Exports of the word analyses (collocations, continuations, key words, frequency list): one table each, as CSV or XLSX, every row
 * naming the release, the selection and the analysis settings, so a file read later says what it counted.
 */
import type {
  CollocationsResponse,
  FrequenciesResponse,
  KeynessResponse,
  NgramsResponse,
} from '../api/analysis-types.ts';
import type { RankedWord } from '../frequencies/frequency-view.ts';
import { describeMatching } from '../search/matching-options.ts';
import { toCsv } from './csv.ts';
import { filterText, type ExportContext } from './export-data.ts';
import { xlsxWorkbook, type XlsxCell } from './xlsx.ts';

/** A table ready for either format. */
export interface AnalysisTable {
  readonly sheet: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly XlsxCell[])[];
}

export const SELECTION_COLUMNS = ['release', 'query', 'index', 'year_min', 'year_max', 'matching', 'filters'] as const;
export const selection = (ctx: ExportContext): XlsxCell[] => [
  ctx.release,
  ctx.query,
  ctx.index,
  ctx.yearMin,
  ctx.yearMax,
  describeMatching(ctx.matching),
  filterText(ctx.filters),
];

/** The collocations table as listed (its order is the answer's `sort`). */
export function collocationsTable(ctx: ExportContext, a: CollocationsResponse, sort: string): AnalysisTable {
  return {
    sheet: 'collocations',
    header: [
      ...SELECTION_COLUMNS,
      'left',
      'right',
      'sort_by',
      'mode',
      'read_occurrences',
      'word',
      'window_frequency',
      'frequency',
      'frequency_exact',
      'log_dice',
      'mi',
      'log_likelihood',
      'example_shard_id',
      'example_rank',
    ],
    rows: a.collocates.map((c) => [
      ...selection(ctx),
      a.left,
      a.right,
      sort,
      a.mode,
      a.read_occurrences,
      c.word,
      c.window_frequency,
      c.frequency.value,
      c.frequency.exact,
      c.log_dice,
      c.mi,
      c.log_likelihood,
      c.example.shard_id,
      c.example.rank,
    ]),
  };
}

/** The continuations as listed, most frequent first, with `other` and the occurrences left out as their own rows. */
export function continuationsTable(ctx: ExportContext, a: NgramsResponse): AnalysisTable {
  const row = (kind: string, words: string, count: number, share: number | null): XlsxCell[] => [
    ...selection(ctx),
    a.direction,
    a.words,
    a.mode,
    kind,
    words,
    count,
    share,
  ];
  return {
    sheet: 'continuations',
    header: [...SELECTION_COLUMNS, 'direction', 'words', 'mode', 'row', 'continuation', 'count', 'share'],
    rows: [
      ...a.continuations.map((c) => row('continuation', c.words.join(' '), c.count, c.share)),
      row('other', '', a.other, null),
      row('inside_word', '', a.inside_word, null),
      row('too_short', '', a.too_short, null),
    ],
  };
}

/** Key words of both sides: A over B, then B over A, each with both counts and rates. */
export function keynessTable(
  ctx: Pick<ExportContext, 'release' | 'index'>,
  sides: { readonly a: string; readonly b: string },
  k: KeynessResponse,
): AnalysisTable {
  const rows = (side: 'a' | 'b', list: KeynessResponse['a_over_b']) =>
    list.map((w): XlsxCell[] => [
      ctx.release,
      ctx.index,
      k.case,
      sides.a,
      sides.b,
      side === 'a' ? 'key_in_a' : 'key_in_b',
      w.word,
      w.count_a,
      w.count_b,
      w.per_million_a,
      w.per_million_b,
      w.log_likelihood,
      w.log_ratio,
    ]);
  return {
    sheet: 'key words',
    header: [
      'release',
      'index',
      'case',
      'subcorpus_a',
      'subcorpus_b',
      'side',
      'word',
      'count_a',
      'count_b',
      'per_million_a',
      'per_million_b',
      'log_likelihood',
      'log_ratio',
    ],
    rows: [...rows('a', k.a_over_b), ...rows('b', k.b_over_a)],
  };
}

/**
 * A frequency list as shown (the filter's words in the table's order, every page), each row with its rank in the
 * subcorpus, count, rate per million words and share of the subcorpus's word tokens.
 */
export function frequencyTable(
  ctx: Pick<ExportContext, 'release' | 'index'>,
  list: { readonly subcorpus: string; readonly sort: string; readonly filter: string },
  f: FrequenciesResponse,
  words: readonly RankedWord[],
): AnalysisTable {
  return {
    sheet: 'frequency list',
    header: [
      'release',
      'index',
      'case',
      'subcorpus',
      'tokens',
      'exact',
      'sort',
      'word_filter',
      'rank',
      'word',
      'count',
      'per_million',
      'share',
    ],
    rows: words.map((w) => [
      ctx.release,
      ctx.index,
      f.case,
      list.subcorpus,
      f.tokens,
      f.exact,
      list.sort,
      list.filter,
      w.rank,
      w.word,
      w.count,
      w.perMillion,
      w.share,
    ]),
  };
}

export function tableCsv(t: AnalysisTable): string {
  return toCsv(t.header, t.rows);
}

export function tableXlsx(t: AnalysisTable): Promise<Uint8Array> {
  return xlsxWorkbook(t.sheet, t.header, t.rows);
}
