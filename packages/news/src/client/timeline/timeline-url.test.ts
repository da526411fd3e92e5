import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_PHRASES, SMOOTHING_SPANS, TIMELINE_MEASURES } from './timeline-data.ts';
import { DEFAULT_MEASURE, parseTimelineView, writeTimelineView } from './timeline-url.ts';

describe('timeline URL state', () => {
  it('reads the measure and compared phrases, and leaves defaults out of the URL', () => {
    expect(parseTimelineView('?q=oil&measure=raw&compare=gas&compare=%E6%9D%B1%E4%BA%AC&smooth=3')).toEqual({
      measure: 'raw',
      compare: ['gas', '東京'],
      smoothing: 3,
    });
    expect(parseTimelineView('?q=oil&measure=bogus&smooth=4')).toEqual({
      measure: DEFAULT_MEASURE,
      compare: [],
      smoothing: 1,
    });
    expect(
      writeTimelineView('q=oil&measure=raw&compare=x&smooth=5', {
        measure: DEFAULT_MEASURE,
        compare: [],
        smoothing: 1,
      }),
    ).toBe('q=oil');
    expect(writeTimelineView('q=oil', { measure: 'per_1000_articles', compare: ['a b'], smoothing: 12 })).toBe(
      'q=oil&measure=per_1000_articles&smooth=12&compare=a+b',
    );
  });

  it('drops blank, repeated and overlong phrases and keeps at most four', () => {
    const long = 'x'.repeat(10_001);
    const qs = ['', ' ', 'a', 'a', long, 'b', 'c', 'd', 'e'].map((c) => `compare=${encodeURIComponent(c)}`).join('&');
    expect(parseTimelineView(`?${qs}`).compare).toEqual(['a', 'b', 'c', 'd']);
  });

  it("reads back what it writes, and keeps the search's own keys", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TIMELINE_MEASURES),
        fc.uniqueArray(
          fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ''),
          { maxLength: MAX_PHRASES - 1 },
        ),
        fc.string({ maxLength: 20 }),
        fc.constantFrom(...SMOOTHING_SPANS),
        (measure, compare, q, smoothing) => {
          const base = new URLSearchParams({ q, case: 'insensitive' }).toString();
          const written = writeTimelineView(base, { measure, compare, smoothing });
          expect(parseTimelineView(`?${written}`)).toEqual({ measure, compare, smoothing });
          const p = new URLSearchParams(written);
          expect([p.get('q'), p.get('case')]).toEqual([q, 'insensitive']);
        },
      ),
    );
  });
});
