import { describe, expect, it } from 'vitest';
import { computeWindow } from './window.ts';

const NOW = Date.UTC(2018, 0, 10, 15, 0, 0);

describe('computeWindow', () => {
  it('defaults to the start of yesterday through 24 months ahead', () => {
    expect(computeWindow({ strict: false, include: false }, 'UTC', NOW)).toEqual({
      startGte: '2018-01-09 00:00:00',
      endLte: '2020-01-10 23:59:59',
    });
  });
  it('snaps explicit bounds to whole days unless strict', () => {
    expect(
      computeWindow(
        { start_date: '2018-01-01 15:00', end_date: '2018-01-01 18:00', strict: false, include: false },
        'UTC',
        NOW,
      ),
    ).toEqual({ startGte: '2018-01-01 00:00:00', endLte: '2018-01-01 23:59:59' });
    expect(
      computeWindow(
        { start_date: '2018-01-01 15:00', end_date: '2018-01-01 18:00', strict: true, include: false },
        'UTC',
        NOW,
      ),
    ).toEqual({ startGte: '2018-01-01 15:00:00', endLte: '2018-01-01 18:00:00' });
  });
  it('reads strict bounds as UTC shown in site time', () => {
    expect(
      computeWindow({ start_date: '2017-12-21', strict: true, include: false }, 'America/New_York', NOW).startGte,
    ).toBe('2017-12-20 19:00:00');
  });
  it('drops the default window when only relative filters are sent, moving them to the end of day', () => {
    expect(
      computeWindow(
        { ends_after: '2017-12-31', starts_before: '2018-01-02', strict: false, include: false },
        'UTC',
        NOW,
      ),
    ).toEqual({ endGt: '2017-12-31 23:59:59', startLt: '2018-01-02 23:59:59' });
  });
  it('ignores every date with include', () => {
    expect(computeWindow({ start_date: '2018-01-01', strict: false, include: true }, 'UTC', NOW)).toEqual({});
  });
});
