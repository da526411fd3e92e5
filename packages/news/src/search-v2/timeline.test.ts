import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenRelease } from '../release/types.ts';
import { crawlPeriodOf, timeline } from './index.ts';
import { ARTICLES, VERSION } from './continuations.fixture.ts';
import { bruteForceOffsets, buildMemoryRelease } from './memory-release.fixture.ts';

let release: OpenRelease;
beforeAll(async () => {
  release = await buildMemoryRelease(ARTICLES, { indexVersion: VERSION });
});

describe('timeline', () => {
  it('gives per crawl period the occurrences (brute force), the articles and their text bytes', async () => {
    const t = await timeline(release, { index: 'news', query: 'Berlin' });
    const periods = [...new Set(ARTICLES.map((a) => a.shard))].sort();
    expect(t.periods.map((p) => p.period)).toEqual(periods);
    for (const p of t.periods) {
      const inPeriod = ARTICLES.filter((a) => a.shard === p.period);
      expect(p.occurrences).toBe(inPeriod.reduce((n, a) => n + bruteForceOffsets(a.text, 'Berlin').length, 0));
      expect(p.articles).toBe(inPeriod.length);
      expect(p.text_bytes).toBe(inPeriod.reduce((n, a) => n + Buffer.byteLength(a.text), 0));
      expect(p.shard_ids).toEqual([p.period]);
    }
    expect(t.total_occurrences).toBe(t.periods.reduce((n, p) => n + p.occurrences, 0));
  });

  it('lists periods without a match with a zero, and honours the year bounds', async () => {
    const t = await timeline(release, { index: 'news', query: '東京', year_min: 2016, year_max: 2016 });
    expect(t.periods.map((p) => [p.period, p.occurrences])).toEqual([
      ['2016-05', 0],
      ['2016-06', 0],
    ]);
  });

  it('refuses an empty query', async () => {
    await expect(timeline(release, { index: 'news', query: '' })).rejects.toThrow(/non-empty/);
  });

  it('counts the parts of a split period toward the period', async () => {
    expect(crawlPeriodOf('2019-03.p002')).toBe('2019-03');
    expect(crawlPeriodOf('2019-03')).toBe('2019-03');
    expect(crawlPeriodOf('2019')).toBe('2019');
  });
});
