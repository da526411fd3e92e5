import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BuildError } from '../errors.ts';
import { parsePeriodSelection } from './period-selection.ts';

const refusal = (spec: string, wholeYears = false): string => {
  try {
    parsePeriodSelection(spec, wholeYears);
  } catch (e) {
    expect(e).toBeInstanceOf(BuildError);
    return (e as BuildError).message;
  }
  throw new Error(`${spec} was accepted`);
};

describe('--only-periods', () => {
  it('selects whole years written as years, year ranges or full month ranges', () => {
    expect(parsePeriodSelection('2019').years).toEqual(['2019']);
    expect(parsePeriodSelection('2021..2023, 2019').years).toEqual(['2019', '2021', '2022', '2023']);
    expect(parsePeriodSelection('2019-01..2019-12,2020-01..2020-06,2020-07..2020-12').years).toEqual(['2019', '2020']);
    expect(parsePeriodSelection('2019-07..2020-06,2019-01..2019-06,2020-07..2020-12').years).toEqual(['2019', '2020']);
  });

  it('selects any months, listing them and their years', () => {
    expect(parsePeriodSelection('2019-11..2020-02,2018-05')).toMatchObject({
      years: ['2018', '2019', '2020'],
      months: ['2018-05', '2019-11', '2019-12', '2020-01', '2020-02'],
    });
    expect(parsePeriodSelection('2019').months).toHaveLength(12);
  });

  it('for yearly shards, refuses a selection that splits a crawl year, naming the months left out and the whole-year spelling', () => {
    expect(refusal('2019-01..2019-06', true)).toMatch(
      /selects only some months of 2019 \(not 2019-07, .*2019-12\); with --period year .*select 2019 \(or 2019-01\.\.2019-12\)/,
    );
    expect(refusal('2018..2019,2020-03', true)).toMatch(/some months of 2020/);
    expect(parsePeriodSelection('2019-01..2019-12', true).years).toEqual(['2019']);
  });

  it('refuses malformed items with the reason and an example', () => {
    expect(refusal('')).toMatch(/empty item; use e\.g\. 2019,2021\.\.2023/);
    expect(refusal('2019,,2020')).toMatch(/empty item/);
    expect(refusal('19')).toMatch(/"19" is not a crawl period/);
    expect(refusal('2019-13')).toMatch(/"2019-13" is not a crawl period/);
    expect(refusal('1800')).toMatch(/years 1900–2200/);
    expect(refusal('2019..2018')).toMatch(/ends before it starts/);
    expect(refusal('2019..2020-12')).toMatch(/mixes a year and a month/);
    expect(refusal('2019..2020..2021')).toMatch(/more than one "\.\."/);
  });

  it('any set of years, written as any mix of years, year ranges and month ranges, parses back to that set (property)', () => {
    const item = fc.record({
      from: fc.integer({ min: 1990, max: 2030 }),
      span: fc.integer({ min: 0, max: 3 }),
      monthly: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 6 }), (items) => {
        const spec = items
          .map(({ from, span, monthly }) =>
            monthly ? `${from}-01..${from + span}-12` : span === 0 ? `${from}` : `${from}..${from + span}`,
          )
          .join(',');
        const expected = [
          ...new Set(items.flatMap(({ from, span }) => Array.from({ length: span + 1 }, (_, i) => from + i))),
        ]
          .sort((a, b) => a - b)
          .map(String);
        expect(parsePeriodSelection(spec, true)).toMatchObject({ spec, years: expected });
      }),
    );
  });
});
