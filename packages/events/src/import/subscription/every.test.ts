import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatEvery, MAX_EVERY_SECONDS, MIN_EVERY_SECONDS, parseEvery } from './every.ts';

describe('parseEvery', () => {
  it('reads minutes, hours and days within 5 minutes to 7 days, at both edges', () => {
    expect(parseEvery('1h')).toBe(3600);
    expect(parseEvery('5m')).toBe(MIN_EVERY_SECONDS);
    expect(parseEvery('4m')).toBeUndefined();
    expect(parseEvery('7d')).toBe(MAX_EVERY_SECONDS);
    expect(parseEvery('169h')).toBeUndefined();
    for (const bad of ['', '1', 'h', '1.5h', '-1h', '1w', '1 h h', '9999999m']) expect(parseEvery(bad)).toBeUndefined();
  });

  it('formats every accepted interval as a text it reads back', () => {
    fc.assert(
      fc.property(fc.integer({ min: MIN_EVERY_SECONDS / 60, max: MAX_EVERY_SECONDS / 60 }), (minutes) => {
        expect(parseEvery(formatEvery(minutes * 60))).toBe(minutes * 60);
      }),
    );
  });
});
