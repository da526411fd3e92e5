import { describe, expect, it } from 'vitest';
import { lineDirection } from './line-direction.ts';

describe('lineDirection', () => {
  it('reads an Arabic or Hebrew match as right to left and a Latin, CJK or Cyrillic one as left to right', () => {
    expect(lineDirection({ left: 'قال ', match: 'ترامب' })).toBe('rtl');
    expect(lineDirection({ left: '', match: 'שלום' })).toBe('rtl');
    expect(lineDirection({ left: 'قال ', match: 'Bundesregierung' })).toBe('ltr');
    expect(lineDirection({ left: '', match: '東京' })).toBe('ltr');
  });
  it('takes a neutral match (digits) from the nearest strong character before it', () => {
    expect(lineDirection({ left: 'العام ', match: '2016' })).toBe('rtl');
    expect(lineDirection({ left: 'im Jahr ', match: '2016' })).toBe('ltr');
    expect(lineDirection({ left: '', match: '2016' })).toBe('ltr');
  });
});
