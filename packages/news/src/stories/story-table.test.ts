import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StoryTable } from './story-table.ts';

/** Years of 0–6 articles; each article joins an earlier article's story or starts its own. */
const release = fc.record({
  docs: fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 4 }),
  joins: fc.array(fc.nat(), { minLength: 24, maxLength: 24 }),
});

describe('StoryTable members', () => {
  it('lists each story as the ascending release numbers whose story it is, and maps numbers back to articles', () => {
    fc.assert(
      fc.property(release, ({ docs, joins }) => {
        const total = docs.reduce((a, b) => a + b, 0);
        const story = new Uint32Array(total);
        for (let i = 0; i < total; i++) {
          const j = (joins[i] ?? 0) % (i + 1);
          story[i] = j === i ? i : (story[j] as number);
        }
        let base = 0;
        const files = docs.map((n, y) => {
          const f = { year: String(2000 + y), base, releaseDocs: total, exact: story.slice(base, base + n) };
          base += n;
          return { ...f, near: f.exact };
        });
        const table = new StoryTable(files);
        for (let id = -1; id <= total; id++) {
          const naive = [...story.keys()].filter((n) => story[n] === id);
          expect([...table.membersOf(id, 'exact')]).toEqual(naive);
          expect([...table.membersOf(id, 'near')]).toEqual(naive);
        }
        for (const f of files)
          for (let d = 0; d < f.exact.length; d++)
            expect(table.articleAt(f.base + d)).toEqual({ year: f.year, docIx: d });
        expect(table.articleAt(total)).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
