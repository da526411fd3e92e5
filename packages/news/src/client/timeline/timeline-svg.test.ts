import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tickAnchor } from './timeline-svg.ts';

describe('tickAnchor', () => {
  it('anchors the last month label at the right edge from inside, so "2026-04" is not cut to "2026-0"', () => {
    expect(tickAnchor(704, 7 * 7, 720)).toBe('end');
    expect(tickAnchor(36, 7 * 7, 720)).toBe('middle');
    expect(tickAnchor(10, 7 * 7, 720)).toBe('start');
  });
  it('keeps every label inside the drawing whatever its position and length', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 280, max: 720 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 20 }),
        (w, f, chars) => {
          const text = chars * 7;
          fc.pre(text <= w);
          const at = f * w;
          const anchor = tickAnchor(at, text, w);
          const [from, to] =
            anchor === 'start' ? [at, at + text] : anchor === 'end' ? [at - text, at] : [at - text / 2, at + text / 2];
          return from >= -1e-9 && to <= w + 1e-9;
        },
      ),
    );
  });
});
