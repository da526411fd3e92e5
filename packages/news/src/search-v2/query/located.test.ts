import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { search } from './index.ts';
import type { EvaluationPath } from './located.ts';
import { available, useNewsRelease } from './search-corpus.fixture.ts';
import { randomQuery } from './random-query.fixture.ts';

describe.skipIf(!available)('verifying candidates from located occurrences or by byte search (real news)', () => {
  const news = useNewsRelease();

  const answer = async (query: string, options: object, path: EvaluationPath): Promise<string> => {
    try {
      return JSON.stringify(
        await search(news.release, { index: 'news', query, page_size: 100, ...options }, undefined, undefined, path),
      );
    } catch (e) {
      return `refused: ${(e as Error).message}`;
    }
  };

  it('gives the same whole answer every way, for random trees, cases and whole_word (property)', async () => {
    // Frequent, rare and absent words, phrases, prefixes and a `*` phrase (never located: its pattern decides).
    const words = [
      'oil',
      'prices',
      'trade',
      'bank',
      'said',
      'Wien',
      'Regierung',
      'cocoa',
      'Bahia',
      '"crude oil"',
      '"the * of"',
      'zzqx',
      'OPEC',
      'die',
    ];
    const query = randomQuery(words, 3);
    const options = fc.record({ case: fc.constantFrom('sensitive', 'insensitive'), whole_word: fc.boolean() });
    let compared = 0;
    await fc.assert(
      fc.asyncProperty(query, options, async (q, o) => {
        const text = await answer(q, o, 'text');
        expect(await answer(q, o, 'located')).toBe(text);
        expect(await answer(q, o, 'auto')).toBe(text);
        if (!text.startsWith('refused')) compared++;
      }),
      { numRuns: 60, seed: 2727 },
    );
    // Most drawn queries are answered (not refused), so the property compared answers, not only refusals.
    expect(compared).toBeGreaterThan(30);
  }, 300_000);

  it('matches a located term only where its word rules hold (whole_word, prefix starts)', async () => {
    for (const query of ['oil AND price', 'econom* AND trade', 'Regierung NOT Wien']) {
      const text = await answer(query, { whole_word: true }, 'text');
      expect(JSON.parse(text)).toMatchObject({ exact: true });
      expect(await answer(query, { whole_word: true }, 'located')).toBe(text);
      // whole_word changes the answer here: the rules were applied to the located hits, not skipped.
      expect(await answer(query, { whole_word: false }, 'located')).not.toBe(text);
    }
  }, 120_000);
});
