import { describe, expect, it } from 'vitest';
import { combineSearch } from '../calls/search.ts';
import type { SearchRequest } from './index.ts';
import { search } from './index.ts';
import { available, useNewsRelease } from './search-corpus.fixture.ts';

// The gateway's merge of workers holding disjoint years, against one process holding them all.
describe.skipIf(!available)('merging search answers of disjoint shard sets', () => {
  const news = useNewsRelease();

  const split = async (request: SearchRequest) => {
    const whole = await search(news.release, request);
    const parts = await Promise.all([
      search(news.release, { ...request, year_max: 1987 }),
      search(news.release, { ...request, year_min: 2016 }),
    ]);
    const order = whole.by_shard.map((s) => s.shard_id);
    return {
      whole,
      merged: combineSearch([parts[1], parts[0]], { order, indexVersion: news.release.indexVersion }, request),
    };
  };

  it.each(['oil OR Regierung', 'econom* OR Wirtschaft*', '(die OR the) NOT Berlin'])(
    'merges %s to the one-process answer: facets, periods, expansions, page',
    async (query) => {
      const { whole, merged } = await split({ index: 'news', query, page_size: 15 });
      expect(whole.facets.source?.length).toBeGreaterThan(1);
      expect(merged).toEqual(whole);
    },
  );
});
