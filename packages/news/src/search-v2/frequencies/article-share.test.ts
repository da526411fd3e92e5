import { describe, expect, it } from 'vitest';
import { buildMemoryRelease } from '../memory-release.fixture.ts';
import { timeline } from '../timeline.ts';
import { SHARE_EXACT_OCCURRENCES } from './article-share.ts';

describe('timeline share_of_articles', () => {
  it("counts the articles holding a match (whole-word rule applied) over the period's articles", async () => {
    const release = await buildMemoryRelease([
      { shard: '2020-01', text: 'oil oil oil' },
      { shard: '2020-01', text: 'no match' },
      { shard: '2020-01', text: 'boiler' },
      { shard: '2020-02', text: 'oil' },
    ]);
    const loose = await timeline(release, { index: 'news', query: 'oil', share: true });
    expect(loose.periods.map((p) => [p.period, p.articles_with_match, p.share_of_articles])).toEqual([
      ['2020-01', 2, 2 / 3],
      ['2020-02', 1, 1],
    ]);
    const whole = await timeline(release, { index: 'news', query: 'oil', whole_word: true, share: true });
    expect(whole.periods[0]).toMatchObject({ occurrences: 3, articles_with_match: 1, share_of_articles: 1 / 3 });
  });

  it('is counted only when asked for: without `share` the periods carry the counts alone', async () => {
    const release = await buildMemoryRelease([
      { shard: '2020-01', text: 'oil oil' },
      { shard: '2020-01', text: 'calm' },
    ]);
    for (const share of [undefined, false]) {
      const t = await timeline(release, { index: 'news', query: 'oil', share });
      expect(t.periods[0]).toMatchObject({ occurrences: 2, articles: 2 });
      for (const key of [
        'articles_with_match',
        'share_of_articles',
        'articles_with_match_interval',
        'share_of_articles_interval',
        'share_exact',
      ])
        expect(t.periods[0], key).not.toHaveProperty(key);
    }
  });

  it(`is exact up to ${SHARE_EXACT_OCCURRENCES} occurrences in a shard and estimated from a sample of articles beyond`, async () => {
    const release = await buildMemoryRelease([
      { shard: '2020-01', text: 'x '.repeat(SHARE_EXACT_OCCURRENCES) },
      { shard: '2020-01', text: 'none' },
      { shard: '2020-02', text: 'x '.repeat(SHARE_EXACT_OCCURRENCES + 1) },
      { shard: '2020-02', text: 'none' },
    ]);
    const t = await timeline(release, { index: 'news', query: 'x', share: true });
    expect(t.periods.map((p) => [p.occurrences, p.articles_with_match, p.share_of_articles, p.share_exact])).toEqual([
      [SHARE_EXACT_OCCURRENCES, 1, 0.5, true],
      // Both articles of the shard are read (fewer than the sample size): exact again.
      [SHARE_EXACT_OCCURRENCES + 1, 1, 0.5, true],
    ]);
  });

  it('covers the true share with its 95% interval for at least 93 of 100 seeds (parts of a period combined)', async () => {
    // 2 parts of 150 articles; 40 and 70 hold "oil" (some twice, some as "oily", which whole_word does not count).
    const articles = ['2020-01.p001', '2020-01.p002'].flatMap((shard, part) =>
      Array.from({ length: 150 }, (_, i) => ({
        shard,
        text: i < (part === 0 ? 40 : 70) ? `oil news ${i % 3 === 0 ? 'oil' : ''}` : i % 4 === 0 ? 'oily rag' : 'calm',
      })),
    );
    const release = await buildMemoryRelease(articles);
    const truth = 110;
    let covered = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const t = await timeline(release, { index: 'news', query: 'oil', whole_word: true, share: true }, undefined, {
        exactOccurrences: 10,
        sampleArticles: 30,
        seed,
      });
      const p = t.periods[0];
      expect(p?.share_exact).toBe(false);
      const iv = p?.articles_with_match_interval ?? { low: NaN, high: NaN };
      expect(iv.low).toBeLessThanOrEqual(p?.articles_with_match ?? NaN);
      expect(iv.high).toBeGreaterThanOrEqual(p?.articles_with_match ?? NaN);
      expect(p?.share_of_articles_interval?.low).toBeCloseTo(iv.low / 300, 12);
      if (iv.low <= truth && truth <= iv.high) covered++;
    }
    expect(covered).toBeGreaterThanOrEqual(93);
  });
});
