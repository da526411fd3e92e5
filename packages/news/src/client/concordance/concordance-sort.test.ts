import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sortLines, words } from './concordance-sort.ts';

const line = (left: string, right: string) => ({ left, right });

describe('concordance sorting', () => {
  it('sorts by the word nearest the match on the left, then the next one out', () => {
    const lines = [line('rising high oil', 'x'), line('the low', 'x'), line('very high', 'x'), line('a High', 'x')];
    expect(sortLines(lines, 'left').map((l) => l.left)).toEqual(['a High', 'very high', 'the low', 'rising high oil']);
  });

  it('sorts by the words right of the match in reading order, ties in corpus order', () => {
    const lines = [line('1', ' rose sharply'), line('2', ' fell.'), line('3', ' rose again'), line('4', ' rose again')];
    expect(sortLines(lines, 'right').map((l) => l.left)).toEqual(['2', '3', '4', '1']);
    expect(sortLines(lines, 'position')).toEqual(lines);
  });

  it('finds words in Japanese text without spaces', () => {
    expect(words('東京都の知事').length).toBeGreaterThan(1);
    expect(words('Hello, world!')).toEqual(['Hello', 'world']);
  });

  it('is a stable permutation whose keys are in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 30 }),
        fc.constantFrom('left' as const, 'right' as const),
        (pairs, order) => {
          const lines = pairs.map(([l, r], i) => ({ left: l, right: r, i }));
          const sorted = sortLines(lines, order);
          expect([...sorted].sort((a, b) => a.i - b.i)).toEqual(lines);
          // Sorting the sorted lines again changes nothing: keys are in order and ties keep their order.
          expect(sortLines(sorted, order).map((x) => x.i)).toEqual(sorted.map((x) => x.i));
        },
      ),
    );
  });
});
