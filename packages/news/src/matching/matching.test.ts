import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { caseFold } from 'unicode-case-folding';
import { buildShardInMemory } from '../shard/index.ts';
import {
  charactersFoldingTo,
  countInArticle,
  matchBudget,
  matchShard,
  MatchingError,
  type MatchOptions,
} from './index.ts';

// Letters with every kind of folding: one-to-one, many-to-one (K, K), one-to-many (ß, ﬀ), Greek final sigma,
// Turkish dotted I, Cyrillic, umlauts, plus spaces, punctuation, digits and a spaceless script.
const ALPHABET = [
  'a',
  'A',
  's',
  'S',
  'ß',
  'ẞ',
  'ſ',
  'σ',
  'Σ',
  'ς',
  'i',
  'I',
  'İ',
  'ı',
  'ä',
  'Ä',
  'k',
  'K',
  '\u212a',
  'f',
  'ﬀ',
  'д',
  'Д',
  ' ',
  '.',
  '1',
  '-',
];
const text = fc.array(fc.constantFrom(...ALPHABET), { minLength: 0, maxLength: 40 }).map((a) => a.join(''));
const WORD = /^[\p{L}\p{N}]$/u;

/** Reference: every (article, char start, char end) whose substring folds to the folded query, by brute force. */
function naiveCount(articles: readonly string[], query: string, opts: MatchOptions): number {
  const want = opts.caseInsensitive ? caseFold(query) : query;
  let n = 0;
  for (const a of articles) {
    const chars = Array.from(a);
    for (let i = 0; i < chars.length; i++) {
      for (let j = i + 1; j <= chars.length; j++) {
        const sub = chars.slice(i, j).join('');
        if ((opts.caseInsensitive ? caseFold(sub) : sub) !== want) continue;
        if (
          opts.wholeWord &&
          ((i > 0 && WORD.test(chars[i - 1] as string)) || (j < chars.length && WORD.test(chars[j] as string)))
        )
          continue;
        n++;
      }
    }
  }
  return n;
}

describe('matching options against a naive scan', () => {
  it('counts every spelling equal under full case folding, and the whole-word rule (countsAt as counts), as brute force does', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(text, { minLength: 1, maxLength: 6 }),
        fc.array(fc.constantFrom(...ALPHABET.filter((c) => c !== ' ')), { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        fc.boolean(),
        async (articles, q, caseInsensitive, wholeWord) => {
          const query = q.join('');
          const reader = await buildShardInMemory(articles.map((a) => Buffer.from(a)));
          const opts = { caseInsensitive, wholeWord };
          const m = matchShard(reader, query, opts, matchBudget());
          expect(await m.count()).toBe(naiveCount(articles, query, opts));
          // Intervals are disjoint and each one's ranks hold its spelling.
          for (let k = 1; k < m.intervals.length; k++)
            expect((m.intervals[k - 1]?.hi ?? 0) <= (m.intervals[k]?.lo ?? 0)).toBe(true);
          for (const iv of m.intervals) {
            for (let r = iv.lo; r < iv.hi; r++) {
              const w = reader.window(r, iv.bytes, 0);
              expect(Buffer.from(w.text).subarray(w.needleOffset, w.needleOffset + iv.bytes.length)).toEqual(
                Buffer.from(iv.bytes),
              );
            }
          }
          // countsAt (the rule at a location the caller already has) agrees with counts at every rank.
          for (const iv of m.intervals)
            for (let r = iv.lo; r < iv.hi; r++) expect(m.countsAt(r, reader.locate(r))).toBe(m.counts(r));
          // The article counter used by estimates agrees.
          const perArticle = articles.reduce(
            (s, a) =>
              s +
              countInArticle(
                Buffer.from(a),
                m.intervals.map((iv) => iv.bytes),
                m.wholeWord,
              ),
            0,
          );
          expect(perArticle).toBe(await m.count());
        },
      ),
      { numRuns: 300 },
    );
  });

  it('finds STRASSE, Straße, STRAẞE and strasse for "straße", and ΣΟΦΟΣ for "σοφος"', async () => {
    const reader = await buildShardInMemory(
      ['Die STRASSE', 'die Straße', 'DIE STRAẞE', 'strasse', 'Strase']
        .map((t) => Buffer.from(t))
        .concat([Buffer.from('ΣΟΦΟΣ σοφός σοφος')]),
    );
    const ci = { caseInsensitive: true, wholeWord: false };
    expect(await matchShard(reader, 'straße', ci, matchBudget()).count()).toBe(4);
    expect(await matchShard(reader, 'σοφος', ci, matchBudget()).count()).toBe(2);
    expect(
      await matchShard(reader, 'Straße', { caseInsensitive: false, wholeWord: false }, matchBudget()).count(),
    ).toBe(1);
  });

  it('counts whole words only, across article edges and punctuation', async () => {
    const reader = await buildShardInMemory(['the rather other', 'The end. the', 'bathe'].map((t) => Buffer.from(t)));
    expect(await matchShard(reader, 'the', { caseInsensitive: false, wholeWord: true }, matchBudget()).count()).toBe(2);
    expect(await matchShard(reader, 'the', { caseInsensitive: true, wholeWord: true }, matchBudget()).count()).toBe(3);
    expect(await matchShard(reader, 'the', { caseInsensitive: false, wholeWord: false }, matchBudget()).count()).toBe(
      5,
    );
  });

  it('refuses whole-word matching for scripts written without spaces, and bounds the work', async () => {
    const reader = await buildShardInMemory([Buffer.from('東京とベルリン aaaa')]);
    expect(() => matchShard(reader, '東京', { caseInsensitive: false, wholeWord: true }, matchBudget())).toThrow(
      MatchingError,
    );
    expect(() => matchShard(reader, 'a', { caseInsensitive: true, wholeWord: false }, matchBudget(1))).toThrow(
      /more than 1 steps/,
    );
    const many = matchShard(reader, 'a', { caseInsensitive: false, wholeWord: true }, matchBudget(undefined, 2));
    await expect(many.count()).rejects.toThrow(/more than 2/);
  });

  it('inverts case folding: the characters folding to s, ss and k', () => {
    expect([...charactersFoldingTo('s')].sort()).toEqual(['S', 's', 'ſ'].sort());
    expect(charactersFoldingTo('ss')).toEqual(['ß', 'ẞ']);
    expect([...charactersFoldingTo('k')].sort()).toEqual(['K', 'k', '\u212a'].sort());
  });
});
