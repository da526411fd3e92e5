import { formatRange, parseRange } from '../keyness/period-range.ts';
import { sourceOf, type SideChoice } from '../keyness/subcorpus-choice.ts';

/** Words asked for: the API's most (`MAX_FREQUENCY_LIMIT`), so filtering and sorting run over one list. */
export const FREQUENCY_LISTED = 1000;
/** Rows shown at first and added by each "Show more". */
export const FREQUENCY_PAGE = 100;

/** The table's orders: by count (most frequent first, the API's order) or by word, either way round. */
export const FREQUENCY_SORTS = ['count', 'count_asc', 'word', 'word_desc'] as const;
export type FrequencySort = (typeof FREQUENCY_SORTS)[number];

/** A listed word with its rank in the API's order (kept through filtering and sorting) and its share of tokens. */
export interface RankedWord {
  readonly rank: number;
  readonly word: string;
  readonly count: number;
  readonly perMillion: number;
  /** count / tokens of the subcorpus (0..1). */
  readonly share: number;
}

/** The API's words, most frequent first, ranked from 1. */
export function rankWords(
  words: readonly { word: string; count: number; per_million: number }[],
  tokens: number,
): RankedWord[] {
  return words.map((w, i) => ({
    rank: i + 1,
    word: w.word,
    count: w.count,
    perMillion: w.per_million,
    share: tokens === 0 ? 0 : w.count / tokens,
  }));
}

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
const ORDERS: Record<FrequencySort, (a: RankedWord, b: RankedWord) => number> = {
  count: (a, b) => a.rank - b.rank,
  count_asc: (a, b) => b.rank - a.rank,
  word: (a, b) => collator.compare(a.word, b.word) || a.rank - b.rank,
  word_desc: (a, b) => collator.compare(b.word, a.word) || a.rank - b.rank,
};

/**
 * The words holding `filter` (ignoring capitals; empty: all), in `sort` order. Count order is rank order, so words
 * of equal count keep the API's order (by word).
 * @example shownWords(list, 'oil', 'word').map((w) => w.word) // ['boil', 'oil', 'Oiler']
 */
export function shownWords(list: readonly RankedWord[], filter: string, sort: FrequencySort): RankedWord[] {
  const needle = filter.trim().toLocaleLowerCase();
  const kept = needle === '' ? [...list] : list.filter((w) => w.word.toLocaleLowerCase().includes(needle));
  return kept.sort(ORDERS[sort]);
}

/** The sort a column heading asks for: the other direction when the column is already the sort. */
export function nextSort(current: FrequencySort, column: 'count' | 'word'): FrequencySort {
  if (column === 'count') return current === 'count' ? 'count_asc' : 'count';
  return current === 'word' ? 'word_desc' : 'word';
}

/** The frequency list's URL keys (`fl`, `fl_src`, `fl_q`, `fl_sort`, `fl_filter`), each null when absent. */
export interface FrequencyKeys {
  readonly fl: string | null;
  readonly fl_src: string | null;
  readonly fl_q: string | null;
  readonly fl_sort: string | null;
  readonly fl_filter: string | null;
}

export interface FrequencyView {
  /** The linked subcorpus; null: none named (the panel starts with the newest period). */
  readonly choice: SideChoice | null;
  readonly sort: FrequencySort;
  readonly filter: string;
}

/** The view a link names; unknown or malformed values fall back to the defaults. */
export function parseFrequencyView(keys: FrequencyKeys): FrequencyView {
  const range = parseRange(keys.fl);
  return {
    choice:
      range === null
        ? null
        : {
            range,
            source: sourceOf(keys.fl_src),
            query: keys.fl_q === '1',
          },
    sort: FREQUENCY_SORTS.find((s) => s === keys.fl_sort) ?? 'count',
    filter: keys.fl_filter ?? '',
  };
}

/** The URL keys of a view (defaults and absent narrowing remove their key). */
export function frequencyKeys(view: FrequencyView): FrequencyKeys {
  const c = view.choice;
  return {
    fl: c === null ? null : formatRange(c.range),
    fl_src: c?.source ?? null,
    fl_q: c?.query === true ? '1' : null,
    fl_sort: view.sort === 'count' ? null : view.sort,
    fl_filter: view.filter.trim() === '' ? null : view.filter.trim(),
  };
}
