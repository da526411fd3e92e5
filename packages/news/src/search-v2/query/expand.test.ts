import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createShardWriter, indexKinds, openShard } from '../../shard/index.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { rejectionOf } from '../v2-error.fixture.ts';
import { expandPrefix } from './expand.ts';
import { search } from './index.ts';
import { useNewsRelease, available } from './search-corpus.fixture.ts';

const WORD_RUN = /^[\p{L}\p{N}]*/u;

/** Reference: every (overlapping) occurrence of the prefix, extended by the letters and digits after it. */
function bruteWords(docs: readonly string[], prefix: string): Map<string, number> {
  const words = new Map<string, number>();
  for (const doc of docs) {
    for (let at = doc.indexOf(prefix); at !== -1; at = doc.indexOf(prefix, at + 1)) {
      const word = prefix + (WORD_RUN.exec(doc.slice(at + prefix.length)) as RegExpExecArray)[0];
      words.set(word, (words.get(word) ?? 0) + 1);
    }
  }
  return words;
}

const root = mkdtempSync(path.join(tmpdir(), 'expand-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let next = 0;

describe('expanding a prefix through the shard index', () => {
  for (const kind of indexKinds()) {
    it(`lists the words starting with the prefix and their occurrences as a scan of the text does (${kind.name} kind, property)`, async () => {
      const text = fc
        .array(fc.constantFrom('a', 'b', 'é', '1', ' ', ',', 'ß', '日', '-'), { maxLength: 30 })
        .map((cs) => cs.join(''));
      await fc.assert(
        fc.asyncProperty(
          fc.array(text, { minLength: 1, maxLength: 5 }),
          fc.constantFrom('a', 'b', 'é', 'ab', 'ß1', '日'),
          async (docs, prefix) => {
            const dir = path.join(root, String(next++));
            const writer = createShardWriter(dir);
            for (const d of docs) writer.append(Buffer.from(d));
            await writer.finish();
            await kind.index(dir);
            const reader = await openShard(dir, 'memory');
            try {
              const words = new Map<string, number>();
              await expandPrefix(reader, Buffer.from(prefix), 1000, words, WorkBudget.unlimited(), `${prefix}*`);
              expect(words).toEqual(bruteWords(docs, prefix));
            } finally {
              reader.close();
            }
          },
        ),
        { numRuns: 40, seed: 27 },
      );
    }, 60_000);
  }
});

describe.skipIf(!available)('wildcards through the index on real news (Reuters-21578 and 10kGNAD)', () => {
  const news = useNewsRelease();

  it.each([
    ['econom*', {}],
    ['Wirtschaft*', {}],
    ['Bundes* OR export*', { year_min: 2016 }],
  ] as const)('answers %s with the words of the selected years and their counts', async (query, years) => {
    const result = await search(news.release, { index: 'news', query, ...years });
    const texts = news.articles.filter((a) => !('year_min' in years) || a.shard >= '2016').map((a) => a.text);
    for (const e of result.expansions) {
      const expected = bruteWords(texts, e.term.slice(0, -1));
      expect(e.words.length).toBe(expected.size);
      expect(Object.fromEntries(e.words.map((w) => [w.word, w.occurrences]))).toEqual(Object.fromEntries(expected));
    }
    expect(result.expansions.map((e) => e.term)).toEqual(query.split(' OR '));
  });

  it('expands every spelling under case: insensitive', async () => {
    const result = await search(news.release, { index: 'news', query: 'ECONOM*', case: 'insensitive' });
    const words = result.expansions[0]?.words ?? [];
    const spellings = new Set(news.articles.flatMap((a) => a.text.match(/econom/gi) ?? []));
    expect(spellings.size).toBeGreaterThan(1);
    expect(new Set(words.map((w) => w.word.slice(0, 6)))).toEqual(spellings);
    const lower = bruteWords(
      news.articles.map((a) => a.text.toLowerCase()),
      'econom',
    );
    expect(words.reduce((n, w) => n + w.occurrences, 0)).toBe([...lower.values()].reduce((n, c) => n + c, 0));
  });

  it('refuses a prefix past 1,000 words with 422 query_too_complex before reading any article, NOT-ed ones too', async () => {
    for (const query of ['a*', 'oil NOT s*']) {
      const e = await rejectionOf(() => search(news.release, { index: 'news', query }));
      expect(e).toMatchObject({ code: 'query_too_complex', status: 422, context: { limit: 1000 } });
      expect(e.detail).toMatch(/stands for more than 1000 different words/);
    }
  });
});
