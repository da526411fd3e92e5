import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EMPTY_STATE } from '../search/url-state.ts';
import {
  choiceKeys,
  choiceProblem,
  describeSide,
  formatSide,
  parseChoice,
  subcorpusBody,
  type OtherSide,
  type SideChoice,
} from './subcorpus-choice.ts';

const PERIODS = ['2024-01', '2024-02', '2024-03', '2024-04'];
const side = (from: string, to: string, source: string | null = null, query = false): SideChoice => ({
  range: { from, to },
  source,
  query,
});

describe('Key words subcorpus choice', () => {
  it("asks for the periods, the outlet and the search's phrase with its matching options", () => {
    const search = { ...EMPTY_STATE, query: 'oil prices', matching: { caseInsensitive: true, wholeWord: true } };
    expect(subcorpusBody(side('2024-02', '2024-03', 'reuters.com', true), PERIODS, search)).toEqual({
      periods: ['2024-02', '2024-03'],
      sources: ['reuters.com'],
      query: '"oil prices"',
      query_case: 'insensitive',
      whole_word: true,
    });
    expect(subcorpusBody(side('2024-01', '2024-01'), PERIODS, search)).toEqual({ periods: ['2024-01'] });
  });

  it('refuses reversed ranges, too many periods, and the rest of an A that is not narrowed', () => {
    expect(choiceProblem(side('2024-03', '2024-01'), side('2024-01', '2024-01'), PERIODS, 240)).toMatch(/no later/);
    expect(choiceProblem(side('2024-01', '2024-04'), side('2024-01', '2024-01'), PERIODS, 3)).toMatch(/at most 3/);
    expect(choiceProblem(side('2024-01', '2024-04'), 'rest', PERIODS, 240)).toMatch(/rest of A's periods is empty/);
    expect(choiceProblem(side('2024-01', '2024-04', 'a.example'), 'rest', PERIODS, 240)).toBeNull();
    expect(choiceProblem(side('2024-01', '2024-04', null, true), 'rest', PERIODS, 240)).toBeNull();
  });

  it('says and records each side in words and in the export', () => {
    const a = side('2024-01', '2024-02', 'dpa.de', true);
    expect(describeSide(a, 'Merkel')).toBe('2024-01 to 2024-02, dpa.de, articles with “Merkel”');
    expect(describeSide('rest', 'Merkel', a)).toBe('the rest of 2024-01 to 2024-02');
    expect(formatSide(a, 'Merkel')).toBe('2024-01..2024-02; source=dpa.de; query="Merkel"');
    expect(formatSide('rest', 'Merkel')).toBe('rest');
  });

  it('reads back from the URL every pair of sides it writes there', () => {
    const period = fc.constantFrom(...PERIODS);
    const source = fc.option(fc.stringMatching(/^[a-z0-9.-]{1,20}$/), { nil: null });
    const sideArb = fc.record({ range: fc.record({ from: period, to: period }), source, query: fc.boolean() });
    const other: fc.Arbitrary<OtherSide> = fc.oneof(
      fc.constant('rest' as const),
      sideArb.map((s) => ({ ...s, query: false })),
    );
    fc.assert(
      fc.property(sideArb, other, (a, b) => {
        expect(parseChoice(choiceKeys(a, b))).toEqual({ a, b });
      }),
    );
  });

  it('reads an old link of two ranges, and nothing from an incomplete one', () => {
    const keys = { kw_a: '2024-03..2024-03', kw_b: '2024-01..2024-02', kw_a_src: null, kw_b_src: null, kw_a_q: null };
    expect(parseChoice(keys)).toEqual({ a: side('2024-03', '2024-03'), b: side('2024-01', '2024-02') });
    expect(parseChoice({ ...keys, kw_b: null })).toBeNull();
    expect(parseChoice({ ...keys, kw_a: 'junk' })).toBeNull();
    expect(parseChoice({ ...keys, kw_a_src: '  ' })?.a.source).toBeNull();
  });
});
