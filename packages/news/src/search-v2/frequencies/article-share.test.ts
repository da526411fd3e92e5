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
    const loose = await timeline(release, { index: 'news', query: 'oil' });
    expect(loose.periods.map((p) => [p.period, p.articles_with_match, p.share_of_articles])).toEqual([
      ['2020-01', 2, 2 / 3],
      ['2020-02', 1, 1],
    ]);
    const whole = await timeline(release, { index: 'news', query: 'oil', whole_word: true });
    expect(whole.periods[0]).toMatchObject({ occurrences: 3, articles_with_match: 1, share_of_articles: 1 / 3 });
  });

  it(`is exact up to ${SHARE_EXACT_OCCURRENCES} occurrences in a shard and null (not a guess) beyond`, async () => {
    const release = await buildMemoryRelease([
      { shard: '2020-01', text: 'x '.repeat(SHARE_EXACT_OCCURRENCES) },
      { shard: '2020-01', text: 'none' },
      { shard: '2020-02', text: 'x '.repeat(SHARE_EXACT_OCCURRENCES + 1) },
    ]);
    const t = await timeline(release, { index: 'news', query: 'x' });
    expect(t.periods.map((p) => [p.occurrences, p.articles_with_match, p.share_of_articles])).toEqual([
      [SHARE_EXACT_OCCURRENCES, 1, 0.5],
      [SHARE_EXACT_OCCURRENCES + 1, null, null],
    ]);
  });
});
