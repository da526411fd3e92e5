import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  EMPTY_FILTERS,
  linkProblems,
  parseSearchState,
  serializeSearchState,
  splitFilterValues,
  type SearchState,
} from './url-state.ts';

describe('search state in the URL', () => {
  it('splits filter values on semicolons, trims them and drops empty and repeated values', () => {
    expect(splitFilterValues(' de; en;;de ; ')).toEqual(['de', 'en']);
    expect(splitFilterValues('')).toEqual([]);
  });

  it('reads phrase, index, years and filters from a query string', () => {
    const s = parseSearchState(
      '?q=Angela+Merkel&index=news_de&year_min=2019&year_max=2024&languages=de;en&countries=AT',
    );
    expect(s).toEqual({
      query: 'Angela Merkel',
      index: 'news_de',
      yearMin: 2019,
      yearMax: 2024,
      filters: { ...EMPTY_FILTERS, languages: ['de', 'en'], countries: ['AT'] },
      matching: { caseInsensitive: false, wholeWord: false },
    });
  });

  it('reads the matching options, and any value but the documented one as the default', () => {
    expect(parseSearchState('?q=x&case=insensitive&whole_word=1').matching).toEqual({
      caseInsensitive: true,
      wholeWord: true,
    });
    expect(parseSearchState('?q=x&case=INSENSITIVE&whole_word=true').matching).toEqual({
      caseInsensitive: false,
      wholeWord: false,
    });
    expect(
      serializeSearchState({ ...parseSearchState('?q=x'), matching: { caseInsensitive: true, wholeWord: false } }),
    ).toBe('q=x&case=insensitive');
  });

  it('ignores years outside 1900-2200 and malformed index names', () => {
    const s = parseSearchState('year_min=1200&year_max=abc&index=Bad-Name');
    expect([s.yearMin, s.yearMax, s.index]).toEqual([null, null, 'news']);
  });

  it('names every value of a link it leaves out, and nothing for a clean link', () => {
    expect(linkProblems('?q=x&year_min=abcd&year_max=1800&index=Bad-Name')).toEqual([
      "The link's first crawl year “abcd” is not a four-digit year from 1900 to 2200, so it was left out.",
      "The link's last crawl year “1800” is not a four-digit year from 1900 to 2200, so it was left out.",
      "The link's index “Bad-Name” is not an index name, so news is searched.",
    ]);
    expect(linkProblems('?year_min=2026&year_max=2024')).toEqual([
      "The link's first crawl year (2026) is after its last (2024), so nothing can match.",
    ]);
    expect(linkProblems('?q=Merkel&index=news&year_min=2019&year_max=2024&languages=de')).toEqual([]);
  });

  it('keeps the phrase byte for byte, including spaces at its ends and reserved characters', () => {
    const s = parseSearchState(serializeSearchState({ ...parseSearchState(''), query: ' a&b=c;d#e+f% ' }));
    expect(s.query).toBe(' a&b=c;d#e+f% ');
  });

  it('round-trips every search state through the URL', () => {
    const value = fc
      .string({ minLength: 1 })
      .map((v) => v.trim())
      .filter((v) => v !== '' && !v.includes(';'));
    const list = fc.uniqueArray(value, { maxLength: 3 });
    const year = fc.option(fc.integer({ min: 1900, max: 2200 }), { nil: null });
    const state = fc.record({
      query: fc.string(),
      index: fc.stringMatching(/^[a-z0-9_]{1,20}$/),
      yearMin: year,
      yearMax: year,
      filters: fc.record({
        languages: list,
        commonlingua_languages: list,
        topics: list,
        sources: list,
        countries: list,
      }),
      matching: fc.record({ caseInsensitive: fc.boolean(), wholeWord: fc.boolean() }),
    });
    fc.assert(
      fc.property(state, (s: SearchState) => {
        expect(parseSearchState(serializeSearchState(s))).toEqual(s);
      }),
    );
  });
});
