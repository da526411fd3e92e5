import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WorkBudget } from '../../work-budget/index.ts';
import { buildMemoryRelease } from '../memory-release.fixture.ts';
import { sampleRanks } from '../sampling.ts';
import { shardSeed, tallyOccurrences, type WeightedOccurrence } from './occurrence-sample.ts';
import { scanIsCheaper } from './text-scan.ts';

/** Overlapping occurrences of `needle` in `hay`, as the index's ranks count them. */
function occurrences(hay: string, needle: string): number {
  let n = 0;
  for (let at = hay.indexOf(needle); at !== -1; at = hay.indexOf(needle, at + 1)) n++;
  return n;
}

const word = fc.constantFrom('ab', 'ba', 'a', 'b', 'ab ab', 'cab');
const article = fc.record({
  shard: fc.constantFrom('2020-01', '2020-02', '2021-01'),
  text: fc.array(word, { minLength: 1, maxLength: 12 }).map((ws) => ws.join(' ')),
  language: fc.constantFrom('en', 'de'),
});

describe('tallyOccurrences', () => {
  it('hands over every occurrence once with weight 1 when no shard is over the exact bound', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(article, { minLength: 1, maxLength: 8 }),
        fc.constantFrom('ab', 'a', 'b a'),
        fc.constantFrom<string[] | null>(null, ['de']),
        async (arts, query, languages) => {
          const release = await buildMemoryRelease(
            arts.map((a) => ({ shard: a.shard, text: a.text, meta: { language: a.language } })),
          );
          const seen: WeightedOccurrence[] = [];
          const { totals, counted } = await tallyOccurrences(
            release,
            { index: 'news', query, languages },
            { exactRanks: 1_000, sampleSize: 10 },
            WorkBudget.unlimited(),
            (o) => seen.push(o),
          );
          const kept = arts.filter((a) => languages === null || languages.includes(a.language));
          expect(totals.mode).toBe('exact');
          expect(totals.total_occurrences).toBe(arts.reduce((n, a) => n + occurrences(a.text, query), 0));
          expect(totals.read_occurrences).toBe(totals.total_occurrences);
          expect(counted).toBe(kept.reduce((n, a) => n + occurrences(a.text, query), 0));
          expect(seen.every((o) => o.weight === 1)).toBe(true);
          expect(new Set(seen.map((o) => `${o.shard.shardId}/${o.occurrence.rank}`)).size).toBe(seen.length);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('finds the same occurrences in the same order by scanning the text as by locating the ranks (property)', async () => {
    const sized = fc.record({
      shard: fc.constantFrom('2020-01', '2020-02'),
      // Long articles too, so a shard's text comes in several slices.
      text: fc
        .array(fc.constantFrom('ab', 'Ab', 'AB', 'ba', 'a', 'b', 'cab'), { minLength: 1, maxLength: 40 })
        .chain((ws) =>
          fc.constantFrom(1, 1, 1, 3_000).map((times) => Array.from({ length: times }, () => ws.join(' ')).join('\n')),
        ),
      language: fc.constantFrom('en', 'de'),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(sized, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('ab', 'a', 'b a', 'ab ab'),
        fc.constantFrom<'sensitive' | 'insensitive'>('sensitive', 'insensitive'),
        fc.constantFrom<string[] | null>(null, ['de']),
        async (arts, query, wordCase, languages) => {
          const release = await buildMemoryRelease(
            arts.map((a) => ({ shard: a.shard, text: a.text, meta: { language: a.language } })),
          );
          const run = async (path: 'located' | 'text') => {
            const seen: string[] = [];
            const r = await tallyOccurrences(
              release,
              { index: 'news', query, languages, case: wordCase },
              { exactRanks: 1_000_000, sampleSize: 10 },
              WorkBudget.unlimited(),
              ({ occurrence: o, shard, weight }) =>
                seen.push(
                  `${shard.shardId} ${o.pos} ${o.article.doc} ${o.article.docStart} ${o.article.docEnd} ${Buffer.from(o.spelling).toString()} ${weight}`,
                ),
              path,
            );
            return { ...r, seen };
          };
          expect(await run('text')).toEqual(await run('located'));
        },
      ),
      { numRuns: 40 },
    );
  });

  it("draws a small sampled shard's occurrences in text order, alike by scanning and by locating (property)", async () => {
    const long = fc.record({
      shard: fc.constantFrom('2020-01', '2020-02'),
      // Long articles too, so a shard's text comes in several slices.
      text: fc
        .array(fc.constantFrom('ab', 'Ab', 'ba', 'a', 'b', 'cab'), { minLength: 1, maxLength: 30 })
        .chain((ws) =>
          fc.constantFrom(1, 1, 1, 3_000).map((times) => Array.from({ length: times }, () => ws.join(' ')).join('\n')),
        ),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(long, { minLength: 1, maxLength: 6 }),
        fc.constantFrom('ab', 'a'),
        fc.constantFrom<'sensitive' | 'insensitive'>('sensitive', 'insensitive'),
        fc.integer({ min: 0, max: 1000 }),
        async (arts, query, wordCase, seed) => {
          const release = await buildMemoryRelease(arts.map((a) => ({ shard: a.shard, text: a.text })));
          const run = async (path: 'located' | 'text', exactRanks: number) => {
            const seen: { shard: string; at: string; weight: number }[] = [];
            const r = await tallyOccurrences(
              release,
              { index: 'news', query, case: wordCase, seed },
              { exactRanks, sampleSize: 4, textOrderBytesPerDraw: 1_000_000 },
              WorkBudget.unlimited(),
              ({ occurrence: o, shard, weight }) =>
                seen.push({ shard: shard.shardId, at: `${o.article.doc} ${o.pos} ${o.spelling.join()}`, weight }),
              path,
            );
            return { ...r, seen };
          };
          const sampled = await run('text', 3);
          expect(await run('located', 3)).toEqual(sampled);
          // Draw i of a sampled shard is its occurrence i in text order (all of them: an exact run).
          const all = await run('located', Infinity);
          // Counted once per shard however many slices its scan came in; weight above 1 only past the sample size.
          const over = [...new Set(arts.map((a) => a.shard))].filter(
            (id) => all.seen.filter((o) => o.shard === id).length > 4,
          ).length;
          expect(sampled.totals.sampled_shards).toBe(over);
          for (const shard of new Set(all.seen.map((o) => o.shard))) {
            const mine = all.seen.filter((o) => o.shard === shard);
            const drawn = sampled.seen.filter((o) => o.shard === shard);
            if (mine.length <= 3) {
              expect(drawn).toEqual(mine);
              continue;
            }
            const draws = sampleRanks([[0, mine.length]], 4, shardSeed(seed, shard)).map((d) => d.rank);
            expect(drawn).toEqual(
              draws.map((d) => ({ ...(mine[d] as (typeof mine)[number]), weight: mine.length / 4 })),
            );
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('scans the text only where that is estimated cheaper than locating', () => {
    // "said it" in the English shards of the real corpora: one occurrence per 1.7 KB.
    expect(scanIsCheaper('compressed', 10_000, 17_000_000, 1)).toBe(true);
    expect(scanIsCheaper('compressed', 379, 17_000_000, 1)).toBe(false);
    expect(scanIsCheaper('sa', 10_000, 17_000_000, 1)).toBe(false);
    // 東京 in a Japanese month (1.15 MB, 9 blocks): its windows decode every block, the scan adds only its search.
    expect(scanIsCheaper('compressed', 195, 1_154_353, 1)).toBe(true);
    expect(scanIsCheaper('compressed', 2, 1_154_353, 1)).toBe(false);
  });

  it('weights a sampled shard so that its draws stand for all of its occurrences, reproducibly per seed', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(article, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 1000 }),
        async (arts, sampleSize, seed) => {
          const release = await buildMemoryRelease(arts.map((a) => ({ shard: a.shard, text: a.text })));
          const run = async () => {
            const weights = new Map<string, number>();
            const r = await tallyOccurrences(
              release,
              { index: 'news', query: 'a', seed },
              { exactRanks: sampleSize, sampleSize },
              WorkBudget.unlimited(),
              (o) => weights.set(o.shard.shardId, (weights.get(o.shard.shardId) ?? 0) + o.weight),
            );
            return { ...r, weights };
          };
          const { totals, counted, weights } = await run();
          const perShard = new Map<string, number>();
          for (const a of arts) perShard.set(a.shard, (perShard.get(a.shard) ?? 0) + occurrences(a.text, 'a'));
          const over = [...perShard.values()].filter((n) => n > sampleSize).length;
          expect(totals.sampled_shards).toBe(over);
          expect(totals.mode).toBe(over === 0 ? 'exact' : 'sampled');
          for (const [shard, n] of perShard) if (n > 0) expect(weights.get(shard)).toBeCloseTo(n, 9);
          expect(counted).toBeCloseTo(totals.total_occurrences, 9);
          expect(totals.read_occurrences).toBe([...perShard.values()].reduce((s, n) => s + Math.min(n, sampleSize), 0));
          expect(await run()).toEqual({ totals, counted, weights });
        },
      ),
      { numRuns: 40 },
    );
  });
});
