import { describe, expect, it } from 'vitest';
import { MAX_ROW_ID, MIN_ROW_ID, toRowId } from './row-id.ts';

describe('toRowId', () => {
  it('keeps ids inside the integer range exactly', () => {
    expect(toRowId('12')).toBe(12);
    expect(toRowId(' 2147483647 ')).toBe(MAX_ROW_ID);
    expect(toRowId(-5)).toBe(-5);
  });
  it('clamps ids past the range to the reserved ceiling (or floor), whatever their length', () => {
    expect(toRowId('2147483648')).toBe(MAX_ROW_ID);
    expect(toRowId('9999999999999999999999999')).toBe(MAX_ROW_ID);
    expect(toRowId(1e19)).toBe(MAX_ROW_ID);
    expect(toRowId('-99999999999')).toBe(MIN_ROW_ID);
  });
  it('refuses what is no integer', () => {
    for (const v of ['1.5', '', 'abc', '1e3', 1.5, Number.NaN, Number.POSITIVE_INFINITY, null, true])
      expect(toRowId(v)).toBeUndefined();
  });
});
