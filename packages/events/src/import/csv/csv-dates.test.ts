import { describe, expect, it } from 'vitest';
import { csvDate, csvTime } from './csv-dates.ts';

describe('csvDate', () => {
  it('reads YYYY-MM-DD, US m/d/Y and European d-m-Y as the plugin does', () => {
    expect(csvDate('2025-07-04')).toBe('2025-07-04');
    expect(csvDate('2025/7/4')).toBe('2025-07-04');
    expect(csvDate('7/4/2025')).toBe('2025-07-04');
    expect(csvDate('4-7-2025')).toBe('2025-07-04');
    expect(csvDate('04.07.2025')).toBe('2025-07-04');
  });
  it('refuses days that do not exist and other shapes', () => {
    for (const bad of ['2025-02-29', '13/1/2025', '31-04-2025', '2025-7', 'July 4 2025', '4/7/25', ''])
      expect(csvDate(bad), bad).toBeUndefined();
    expect(csvDate('2024-02-29')).toBe('2024-02-29');
  });
});

describe('csvTime', () => {
  it('reads 24-hour and am/pm times', () => {
    expect(csvTime('14:30')).toBe('14:30:00');
    expect(csvTime('9:05:07')).toBe('09:05:07');
    expect(csvTime('2:30 pm')).toBe('14:30:00');
    expect(csvTime('12 AM')).toBe('00:00:00');
    expect(csvTime('12:15 p.m.')).toBe('12:15:00');
  });
  it('refuses impossible or ambiguous times', () => {
    for (const bad of ['24:00', '13:00 pm', '14', '10:60', 'noon', '0 am']) expect(csvTime(bad), bad).toBeUndefined();
  });
});
