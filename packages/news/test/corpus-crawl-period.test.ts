import { describe, expect, it } from 'vitest';
import { parseCrawlPeriod } from '../src/corpus/index.ts';

describe('parseCrawlPeriod', () => {
  it.each([
    ['2024-05-03T18:19:08.721370', { year: '2024', month: 5 }],
    ['1987-02-26T15:01:01.79', { year: '1987', month: 2 }],
    ['2016-05-31', { year: '2016', month: 5 }],
    ['2024-11', { year: '2024', month: 11 }],
    // The date as written decides the month: no conversion to UTC.
    ['2010-05-31T23:30:00+09:00', { year: '2010', month: 5 }],
    ['2012-12-31T23:59:59-05:00', { year: '2012', month: 12 }],
    ['2023-04-28 10:00:00', { year: '2023', month: 4 }],
  ])('reads %s as its written year and month', (input, expected) => {
    expect(parseCrawlPeriod(input)).toEqual(expected);
  });

  it.each([
    ['yesterday', /not an ISO 8601 date/],
    ['2024-13-01', /no valid month/],
    ['2024-00-10', /no valid month/],
    ['2024-02-32', /no valid month\/day/],
    ['1850-01-01', /year 1850 is outside 1900–2200/],
    ['20240101', /not an ISO 8601 date/],
    ['2024-01-01x', /not an ISO 8601 date/],
  ])('refuses %s with a reason', (input, reason) => {
    expect(parseCrawlPeriod(input)).toMatch(reason);
  });
});
