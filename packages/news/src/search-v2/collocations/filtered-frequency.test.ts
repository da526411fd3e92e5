import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWholeWordIn } from '../../matching/index.ts';
import type { OpenRelease, ReleaseIndex } from '../../release/types.ts';
import { RequestMatcher } from '../matching.ts';
import { buildMemoryRelease } from '../memory-release.fixture.ts';
import { ANALYSIS_LIMITS } from '../ngrams/limits.ts';
import { shardSeed } from '../ngrams/occurrence-sample.ts';
import { sampleRanks } from '../sampling.ts';
import { choosePath, filteredFrequencies } from './filtered-frequency.ts';

// Pieces glued with separators that may join them into longer words ("Bundes" + "regierung", "world" + "'s").
const PIECES = ['Bund', 'Bundes', 'regierung', 'die', 'Die', 'DIE', 'über', 'Über', 'world', "'s", '東京', '都', 'x1'];
const GLUE = [' ', ', ', '-', '', '. '];
const WORDS = ['Bund', 'Bundes', 'Bundesregierung', 'die', 'Die', 'über', 'world', "world's", '東京', '東京都', 'x1'];

const article = fc.record({
  shard: fc.constantFrom('2020-01', '2020-02', '2021-05'),
  language: fc.constantFrom('de', 'en'),
  parts: fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom(...GLUE)), { minLength: 1, maxLength: 30 }),
});

const textOf = (parts: readonly (readonly [string, string])[]) => parts.map(([p, g]) => p + g).join('');

/** Naive f_y of an exact shard: every occurrence in a German article, whole-word unless the word has no spaces. */
function naive(texts: readonly string[], word: string): number {
  const spaceless = /[\p{Script=Han}]/u.test(word);
  let n = 0;
  for (const t of texts) {
    const bytes = Buffer.from(t);
    const w = Buffer.from(word);
    for (let at = bytes.indexOf(w); at !== -1; at = bytes.indexOf(w, at + 1))
      if (spaceless || isWholeWordIn(bytes, at, w.length)) n++;
  }
  return n;
}

const DE = { index: 'news', query: 'x', languages: ['de'] } as const;

describe('filtered f_y counted through the index or through the passing articles', () => {
  it('gives the same figures both ways, equal to a naive count in the passing articles', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(article, { minLength: 1, maxLength: 12 }),
        fc.constantFrom('sensitive' as const, 'insensitive' as const),
        async (articles, wordCase) => {
          const release = await buildMemoryRelease(
            articles.map((a) => ({ shard: a.shard, text: textOf(a.parts), meta: { language: a.language } })),
          );
          const request = { ...DE, case: wordCase };
          const located = await filteredFrequencies(release, request, WORDS, undefined, 'located');
          const text = await filteredFrequencies(release, request, WORDS, undefined, 'text');
          const auto = await filteredFrequencies(release, request, WORDS);
          expect(text).toEqual(located);
          expect(auto).toEqual(located);
          if (wordCase === 'sensitive') {
            const german = articles.filter((a) => a.language === 'de').map((a) => textOf(a.parts));
            for (const w of WORDS) expect(located.get(w), w).toEqual({ value: naive(german, w), exact: false });
          }
          release.close();
        },
      ),
      { numRuns: 60 },
    );
  });

  it('estimates a word with more candidate ranks than the exact bound from the same seeded draws both ways', async () => {
    const many = ANALYSIS_LIMITS.frequencyExactRanks + 700;
    const release = await buildMemoryRelease([
      { shard: '2020-01', text: 'die '.repeat(many / 2), meta: { language: 'de' } },
      { shard: '2020-01', text: 'Studie die '.repeat(many / 4), meta: { language: 'en' } },
      { shard: '2020-01', text: 'Studie, die '.repeat(many / 4), meta: { language: 'de' } },
    ]);
    const located = await filteredFrequencies(release, DE, ['die'], undefined, 'located');
    const text = await filteredFrequencies(release, DE, ['die'], undefined, 'text');
    expect(text).toEqual(located);
    // The definition, spelled out: draws that are whole words in a German article, times candidates / draws.
    const shard = (release.indexes.get('news') as ReleaseIndex).shards[0];
    if (shard === undefined) throw new Error('fixture has no shard');
    const matcher = new RequestMatcher('die', { whole_word: true });
    const iv = matcher.match(shard).intervals[0];
    if (iv === undefined) throw new Error('no interval');
    const candidates = iv.hi - iv.lo;
    expect(candidates).toBeGreaterThan(ANALYSIS_LIMITS.frequencyExactRanks);
    const draws = sampleRanks([[iv.lo, iv.hi]], ANALYSIS_LIMITS.frequencySampleSize, shardSeed(1, shard.shardId));
    const hits = draws.filter(
      (d) => matcher.counts(shard, d.rank) && shard.reader.locate(d.rank).doc !== 1, // article 1 is English
    ).length;
    expect(located.get('die')).toEqual({ value: hits * (candidates / draws.length), exact: false });
    expect(hits).toBeGreaterThan(0);
    release.close();
  });

  it('counts nothing in a shard no article of which passes', async () => {
    const release: OpenRelease = await buildMemoryRelease([
      { shard: '2020-01', text: 'die die die', meta: { language: 'en' } },
    ]);
    expect((await filteredFrequencies(release, DE, ['die'])).get('die')).toEqual({ value: 0, exact: false });
    release.close();
  });
});

describe('choosePath', () => {
  it('reads the text when locating would cost more, and locates a few ranks in much text', () => {
    expect(choosePath('compressed', 60_000, 2_700_000, 32)).toBe('text');
    expect(choosePath('compressed', 3, 500_000, 100)).toBe('located');
    expect(choosePath('sa', 200, 2_700_000, 32)).toBe('located');
  });
});
