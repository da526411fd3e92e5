import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_PHRASES, TIMELINE_MEASURES } from './timeline-data.ts';
import { DEFAULT_MEASURE, parseTimelineView, writeTimelineView } from './timeline-url.ts';

describe('timeline URL state', () => {
  it('reads the measure and compared phrases, and leaves defaults out of the URL', () => {
    expect(parseTimelineView('?q=oil&measure=raw&compare=gas&compare=%E6%9D%B1%E4%BA%AC')).toEqual({
      measure: 'raw',
      compare: ['gas', '東京'],
    });
    expect(parseTimelineView('?q=oil&measure=bogus')).toEqual({ measure: DEFAULT_MEASURE, compare: [] });
    expect(writeTimelineView('q=oil&measure=raw&compare=x', { measure: DEFAULT_MEASURE, compare: [] })).toBe('q=oil');
    expect(writeTimelineView('q=oil', { measure: 'per_1000_articles', compare: ['a b'] })).toBe(
      'q=oil&measure=per_1000_articles&compare=a+b',
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
        (measure, compare, q) => {
          const base = new URLSearchParams({ q, case: 'insensitive' }).toString();
          const written = writeTimelineView(base, { measure, compare });
          expect(parseTimelineView(`?${written}`)).toEqual({ measure, compare });
          const p = new URLSearchParams(written);
          expect([p.get('q'), p.get('case')]).toEqual([q, 'insensitive']);
        },
      ),
    );
  });
});
