import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { barShare, parseCollocationView, windowSides, WINDOW_SPAN } from './collocation-options.ts';

describe('collocation options', () => {
  it('maps each window choice to the API sides', () => {
    expect(windowSides('both')).toEqual({ left: WINDOW_SPAN, right: WINDOW_SPAN });
    expect(windowSides('left')).toEqual({ left: WINDOW_SPAN, right: 0 });
    expect(windowSides('right')).toEqual({ left: 0, right: WINDOW_SPAN });
  });

  it('reads unknown URL values as the defaults', () => {
    expect(parseCollocationView('mi', 'left')).toEqual({ sort: 'mi', window: 'left' });
    expect(parseCollocationView('<script>', null)).toEqual({ sort: 'log_dice', window: 'both' });
  });

  it('keeps every bar between 0 and 1, the longest at 1', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1e9, noNaN: true }), { minLength: 1 }), (values) => {
        const max = Math.max(...values);
        const shares = values.map((v) => barShare(v, max));
        for (const s of shares) expect(s >= 0 && s <= 1).toBe(true);
        if (max > 0) expect(Math.max(...shares)).toBe(1);
      }),
    );
  });
});
