import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calendarGaps, nearestPeriod, periodPositions } from './calendar-axis.ts';

describe('the calendar time axis', () => {
  it('draws 2016-05 → 2023-04 (83 months) 83 times as wide as 2023-04 → 2023-05', () => {
    const [a, b, c] = periodPositions(['2016-05', '2023-04', '2023-05']) as [number, number, number];
    expect(a).toBe(0);
    expect(c).toBe(1);
    expect((b - a) / (c - b)).toBeCloseTo(83, 9);
  });
  it('reports the months absent from the corpus as gaps, and none between consecutive months or years', () => {
    expect(calendarGaps(['2016-05', '2023-04', '2023-05'])).toEqual([{ after: 0, missing: 82 }]);
    expect(calendarGaps(['2022-12', '2023-01'])).toEqual([]);
    expect(calendarGaps(['2019', '2020', '2023'])).toEqual([{ after: 1, missing: 2 }]);
  });
  it('places one period in the middle', () => {
    expect(periodPositions(['2020-01'])).toEqual([0.5]);
  });
  it('keeps positions increasing and proportional to calendar months for any sorted months', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 2000 * 12, max: 2030 * 12 }), { minLength: 2, maxLength: 40 }),
        (raw) => {
          const months = [...raw].sort((x, y) => x - y);
          const periods = months.map((m) => `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`);
          const pos = periodPositions(periods);
          const span = (months.at(-1) as number) - (months[0] as number);
          return (
            pos.every((p, i) => Math.abs(p - ((months[i] as number) - (months[0] as number)) / span) < 1e-12) &&
            calendarGaps(periods).reduce((n, g) => n + g.missing, 0) === span + 1 - months.length
          );
        },
      ),
    );
  });
  it('finds the period nearest a pointer position', () => {
    expect(nearestPeriod([0, 0.99, 1], 0.4)).toBe(0);
    expect(nearestPeriod([0, 0.99, 1], 0.999)).toBe(2);
  });
});
