import fc from 'fast-check';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenRelease, ReleaseIndex, ShardId } from '../../release/types.ts';
import { collocations, combineCollocations } from '../collocations/index.ts';
import { buildMemoryRelease, type FixtureArticle } from '../memory-release.fixture.ts';
import { combineNgrams, ngrams } from './index.ts';

const ARTICLES: FixtureArticle[] = [
  ['2020-01', 'Oil prices rose sharply. Oil prices fell later, and oil prices rose again.'],
  ['2020-01', 'Analysts said oil prices would rise; the oil price fell.'],
  ['2020-02', 'Oil prices rose. Crude oil prices fell on Monday.'],
  ['2020-03', 'In Berlin oil prices rose while gas prices fell.'],
  ['2021-01', 'oil prices rose, oil prices rose, oil prices stalled.'],
  ['2021-02', 'Nobody expected oil prices to fall so fast.'],
].map(([shard, text]) => ({ shard: shard as string, text: text as string, meta: { language: 'en' } }));

let release: OpenRelease;
let tables: string;
beforeAll(async () => {
  // With word-count tables, as the builder writes them: the collocates' subcorpus frequencies come from them.
  tables = await mkdtemp(join(tmpdir(), 'analyses-combine-'));
  release = await buildMemoryRelease(ARTICLES, { wordCountsDir: tables });
});
afterAll(async () => {
  await rm(tables, { recursive: true, force: true });
});

/** The release seen by a worker holding only `keep` of the shards. */
function subset(keep: (shardId: string) => boolean): OpenRelease {
  const index = release.indexes.get('news') as ReleaseIndex;
  return {
    ...release,
    indexes: new Map([['news', { ...index, shards: index.shards.filter((s) => keep(s.shardId)) }]]),
    close: () => {},
  };
}

const shardIds = () => (release.indexes.get('news') as ReleaseIndex).shards.map((s) => s.shardId);
const split = fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 5, maxLength: 5 });

describe('answers of workers holding disjoint shard sets combine to the one-worker answer', () => {
  it('ngrams, both directions', async () => {
    await fc.assert(
      fc.asyncProperty(
        split,
        fc.constantFrom('left' as const, 'right' as const),
        fc.integer({ min: 1, max: 3 }),
        async (owner, direction, words) => {
          const ids = shardIds();
          const body = { index: 'news', query: 'oil prices', direction, words, case: 'insensitive' as const };
          const whole = await ngrams(release, body);
          const parts = await Promise.all(
            [0, 1, 2]
              .filter((w) => owner.includes(w) || w === 0)
              .map((w) =>
                ngrams(
                  subset((id) => (owner[ids.indexOf(id as ShardId)] ?? 0) === w),
                  body,
                ),
              ),
          );
          expect(combineNgrams(parts, { order: ids, indexVersion: release.indexVersion }, body)).toEqual(whole);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('collocations: window counts, positions and examples exactly; subcorpus frequencies exact where every part listed the word', async () => {
    await fc.assert(
      fc.asyncProperty(split, async (owner) => {
        const ids = shardIds();
        const body = {
          index: 'news',
          query: 'oil prices',
          left: 2,
          right: 2,
          by_position: true,
          min_frequency: 1,
          limit: 200,
        };
        const whole = await collocations(release, body);
        const parts = await Promise.all(
          [0, 1, 2].map((w) =>
            collocations(
              subset((id) => (owner[ids.indexOf(id as ShardId)] ?? 0) === w),
              body,
            ),
          ),
        );
        const merged = combineCollocations(parts, { order: ids, indexVersion: release.indexVersion }, body);
        // Window counts, positions and examples merge exactly; a subcorpus frequency exactly where every part listed the word.
        const key = (c: (typeof whole.collocates)[number]) => [c.word, c.window_frequency, c.positions, c.example];
        expect(new Set(merged.collocates.map((c) => JSON.stringify(key(c))))).toEqual(
          new Set(whole.collocates.map((c) => JSON.stringify(key(c)))),
        );
        expect({ ...merged, collocates: [] }).toEqual({ ...whole, collocates: [] });
        for (const c of merged.collocates) {
          const w = whole.collocates.find((x) => x.word === c.word);
          const listedByAll = parts.every((p) => p.collocates.some((x) => x.word === c.word));
          expect(c.frequency.exact).toBe(listedByAll);
          if (listedByAll) expect(c.frequency.value).toBe(w?.frequency.value);
          else expect(c.frequency.value).toBeLessThanOrEqual(w?.frequency.value ?? 0);
        }
      }),
      { numRuns: 25 },
    );
  });
});

describe('ngrams on a small release', () => {
  it('counts what follows, completes a partial word, and counts phrases ending inside a word', async () => {
    const r = await ngrams(release, { index: 'news', query: 'oil prices', words: 1, case: 'insensitive' });
    expect(r.continuations.slice(0, 2)).toEqual([
      { words: ['rose'], count: 6, share: 6 / 11 },
      { words: ['fell'], count: 2, share: 2 / 11 },
    ]);
    const c = await ngrams(release, { index: 'news', query: 'oil pri', complete: true, words: 1, case: 'insensitive' });
    expect(c.continuations.map((x) => x.words)).toEqual([['prices'], ['price']]);
    const inside = await ngrams(release, { index: 'news', query: 'oil pri', words: 1 });
    expect(inside.inside_word).toBe(inside.total_occurrences);
  });
});
