import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  FREQUENCY_SORTS,
  frequencyKeys,
  nextSort,
  parseFrequencyView,
  rankWords,
  shownWords,
  type FrequencyView,
} from './frequency-view.ts';

const api = [
  { word: 'the', count: 50, per_million: 500_000 },
  { word: 'Oil', count: 20, per_million: 200_000 },
  { word: 'boil', count: 20, per_million: 200_000 },
  { word: 'zebra', count: 10, per_million: 100_000 },
];

describe('rankWords', () => {
  it('ranks in the API order from 1 and gives each word its share of the tokens', () => {
    expect(rankWords(api, 100).map((w) => [w.rank, w.word, w.share])).toEqual([
      [1, 'the', 0.5],
      [2, 'Oil', 0.2],
      [3, 'boil', 0.2],
      [4, 'zebra', 0.1],
    ]);
    expect(rankWords(api, 0)[0]!.share).toBe(0);
  });
});

describe('shownWords', () => {
  const list = rankWords(api, 100);
  it('keeps the words holding the filter, ignoring capitals, each with its rank', () => {
    expect(shownWords(list, ' OIL ', 'count').map((w) => [w.rank, w.word])).toEqual([
      [2, 'Oil'],
      [3, 'boil'],
    ]);
    expect(shownWords(list, '', 'count')).toHaveLength(4);
  });

  it('sorts by count either way and by word either way', () => {
    expect(shownWords(list, '', 'count_asc').map((w) => w.word)).toEqual(['zebra', 'boil', 'Oil', 'the']);
    expect(shownWords(list, '', 'word').map((w) => w.word)).toEqual(['boil', 'Oil', 'the', 'zebra']);
    expect(shownWords(list, '', 'word_desc').map((w) => w.word)).toEqual(['zebra', 'the', 'Oil', 'boil']);
  });

  it('is the filtered words of the list, once each, in the chosen order (against a naive reference)', () => {
    const words = fc.array(fc.record({ word: fc.string({ maxLength: 6 }), count: fc.nat(1000) }), { maxLength: 40 });
    fc.assert(
      fc.property(words, fc.string({ maxLength: 2 }), fc.constantFrom(...FREQUENCY_SORTS), (ws, filter, sort) => {
        const sorted = [...ws].sort((a, b) => b.count - a.count).map((w) => ({ ...w, per_million: w.count }));
        const list = rankWords(sorted, 1000);
        const out = shownWords(list, filter, sort);
        const needle = filter.trim().toLocaleLowerCase();
        const want = list.filter((w) => w.word.toLocaleLowerCase().includes(needle));
        expect([...out].sort((a, b) => a.rank - b.rank)).toEqual(want);
        for (let i = 1; i < out.length; i++) {
          const [p, q] = [out[i - 1]!, out[i]!];
          if (sort === 'count') expect(p.rank).toBeLessThan(q.rank);
          if (sort === 'count_asc') expect(p.rank).toBeGreaterThan(q.rank);
        }
      }),
    );
  });
});

describe('the URL keys', () => {
  it('round-trips a narrowed subcorpus, the sort and the filter', () => {
    const view: FrequencyView = {
      choice: { range: { from: '2024-01', to: '2024-03' }, source: 'reuters.com', query: true },
      sort: 'word_desc',
      filter: 'oil',
    };
    const keys = frequencyKeys(view);
    expect(keys).toEqual({
      fl: '2024-01..2024-03',
      fl_src: 'reuters.com',
      fl_q: '1',
      fl_sort: 'word_desc',
      fl_filter: 'oil',
    });
    expect(parseFrequencyView(keys)).toEqual(view);
  });

  it('leaves defaults out and reads unknown values as the defaults', () => {
    expect(frequencyKeys({ choice: null, sort: 'count', filter: ' ' })).toEqual({
      fl: null,
      fl_src: null,
      fl_q: null,
      fl_sort: null,
      fl_filter: null,
    });
    expect(parseFrequencyView({ fl: 'x', fl_src: null, fl_q: null, fl_sort: 'LL', fl_filter: null })).toEqual({
      choice: null,
      sort: 'count',
      filter: '',
    });
  });

  it('turns a sorted column the other way and starts another column in its natural order', () => {
    expect(nextSort('count', 'count')).toBe('count_asc');
    expect(nextSort('count_asc', 'count')).toBe('count');
    expect(nextSort('count', 'word')).toBe('word');
    expect(nextSort('word', 'word')).toBe('word_desc');
  });
});
