import type { AnalysisCalls } from '../api/analysis-types.ts';
import type { SearchState } from '../search/url-state.ts';
import { describeRange, formatRange, parseRange, rangePeriods, type PeriodRange } from './period-range.ts';

/**
 * One side of the Key words comparison: a range of crawl periods, optionally narrowed to one outlet (the `sources`
 * filter: a hostname or site name) and, for side A, to the articles holding the search's phrase.
 */
export interface SideChoice {
  readonly range: PeriodRange;
  /** A hostname or site name, as the Source filter takes it; null: every outlet. */
  readonly source: string | null;
  /** Only the articles holding the search's phrase (with its matching options). */
  readonly query: boolean;
}

/** Subcorpus B: chosen like A, or the rest of A's periods (the articles of those periods that A does not hold). */
export type OtherSide = SideChoice | 'rest';

type KeynessRequest = AnalysisCalls['/api/v2/keyness']['request'];
type SubcorpusBody = Exclude<KeynessRequest['b'], 'rest'>;

/** The longest outlet name the box takes (a hostname is at most 253 characters). */
export const MAX_SOURCE_LENGTH = 253;

/** The search's phrase as a query of the query language: quoted, so it stays one exact phrase. */
export const phraseQuery = (phrase: string): string => `"${phrase}"`;

/** What a side asks the API for: its periods, its outlet, and the search's phrase with its matching options. */
export function subcorpusBody(side: SideChoice, periods: readonly string[], search: SearchState): SubcorpusBody {
  return {
    periods: rangePeriods(periods, side.range),
    ...(side.source === null ? {} : { sources: [side.source] }),
    ...(side.query
      ? {
          query: phraseQuery(search.query),
          query_case: search.matching.caseInsensitive ? 'insensitive' : 'sensitive',
          whole_word: search.matching.wholeWord,
        }
      : {}),
  };
}

/** Why one side's periods cannot be counted, in plain words; null when they can. */
export function rangeProblem(side: SideChoice, periods: readonly string[], max: number): string | null {
  const n = rangePeriods(periods, side.range).length;
  if (n === 0) return 'Each subcorpus needs a first period no later than its last.';
  if (n > max) return `A subcorpus spans at most ${max} crawl periods.`;
  return null;
}

/** Why the two sides cannot be compared as chosen, in plain words; null when they can. */
export function choiceProblem(a: SideChoice, b: OtherSide, periods: readonly string[], max: number): string | null {
  for (const s of b === 'rest' ? [a] : [a, b]) {
    const problem = rangeProblem(s, periods, max);
    if (problem !== null) return problem;
  }
  if (b === 'rest' && a.source === null && !a.query)
    return "The rest of A's periods is empty unless A is narrowed to an outlet or to the articles with the phrase.";
  return null;
}

/** A side in words, for the status line and the table headings. */
export function describeSide(side: OtherSide, phrase: string, a?: SideChoice): string {
  if (side === 'rest') return `the rest of ${a === undefined ? "A's periods" : describeRange(a.range)}`;
  return [
    describeRange(side.range),
    ...(side.source === null ? [] : [side.source]),
    ...(side.query ? [`articles with “${phrase}”`] : []),
  ].join(', ');
}

/**
 * A side as the export and the file name record it: `2024-01..2024-03`, then `; source=…` and `; query="…"` when
 * narrowed, or `rest`.
 */
export function formatSide(side: OtherSide, phrase: string): string {
  if (side === 'rest') return 'rest';
  return [
    formatRange(side.range),
    ...(side.source === null ? [] : [`source=${side.source}`]),
    ...(side.query ? [`query=${phraseQuery(phrase)}`] : []),
  ].join('; ');
}

/** The URL keys of the comparison (`kw_a`, `kw_b`, `kw_a_src`, `kw_b_src`, `kw_a_q`), each null when absent. */
export interface ChoiceKeys {
  readonly kw_a: string | null;
  readonly kw_b: string | null;
  readonly kw_a_src: string | null;
  readonly kw_b_src: string | null;
  readonly kw_a_q: string | null;
}

/** An outlet as a link gives it: trimmed, null when empty or too long. */
export const sourceOf = (text: string | null): string | null => {
  const s = (text ?? '').trim();
  return s === '' || s.length > MAX_SOURCE_LENGTH ? null : s;
};

/** The two sides a link names, or null when it names no complete comparison. */
export function parseChoice(keys: ChoiceKeys): { a: SideChoice; b: OtherSide } | null {
  const a = parseRange(keys.kw_a);
  if (a === null) return null;
  const side: SideChoice = { range: a, source: sourceOf(keys.kw_a_src), query: keys.kw_a_q === '1' };
  if (keys.kw_b === 'rest') return { a: side, b: 'rest' };
  const b = parseRange(keys.kw_b);
  return b === null ? null : { a: side, b: { range: b, source: sourceOf(keys.kw_b_src), query: false } };
}

/** The URL keys of two sides (absent narrowing removes its key). */
export function choiceKeys(a: SideChoice, b: OtherSide): ChoiceKeys {
  return {
    kw_a: formatRange(a.range),
    kw_a_src: a.source,
    kw_a_q: a.query ? '1' : null,
    kw_b: b === 'rest' ? 'rest' : formatRange(b.range),
    kw_b_src: b === 'rest' ? null : b.source,
  };
}
