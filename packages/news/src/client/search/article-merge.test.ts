import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DocumentsResponse } from '../api/types.ts';
import { ArticleSet, formatIntervals } from './article-merge.ts';

/** A shard's occurrences as (rank → doc) and a page cut, to build documents pages like the API does. */
function pagesOf(
  shardId: string,
  year: string,
  docs: readonly number[],
  cuts: readonly number[],
  keep: (doc: number) => boolean,
): DocumentsResponse[] {
  const bounds = [0, ...[...new Set(cuts.map((c) => c % (docs.length + 1)))].sort((a, b) => a - b), docs.length];
  const pages: DocumentsResponse[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i] as number;
    const to = bounds[i + 1] as number;
    if (to <= from) continue;
    const recs = new Map<number, { first: number; n: number }>();
    for (let r = from; r < to; r++) {
      const d = docs[r] as number;
      const rec = recs.get(d) ?? { first: r, n: 0 };
      rec.n += 1;
      recs.set(d, rec);
    }
    const matching = [...recs].filter(([d]) => keep(d));
    pages.push({
      index_version: 'v1',
      shard_id: shardId,
      rank_from: from,
      rank_to: to,
      page_occurrences: to - from,
      page_distinct_documents: recs.size,
      page_matching_documents: matching.length,
      page_matching_occurrences: matching.reduce((n, [, r]) => n + r.n, 0),
      documents: matching.map(([d, r]) => ({
        year,
        doc_ix: d,
        occurrences: r.n,
        first_rank: r.first,
        metadata: { title: `doc ${d}` },
      })),
    });
  }
  return pages;
}

describe('merging examined pages into articles', () => {
  it('counts an article that spans two pages once, with the occurrences of both', () => {
    const set = new ArticleSet();
    for (const p of pagesOf('2024-01', '2024', [4, 4, 4, 7, 7], [2], () => true)) set.addPage(p);
    expect(set.articles().map((a) => [a.docIx, a.occurrences, a.firstRank])).toEqual([
      [4, 3, 0],
      [7, 2, 3],
    ]);
    expect(set.totals()).toEqual({ examinedOccurrences: 5, matchingOccurrences: 5, matchingArticles: 2 });
    expect(formatIntervals(set.examinedIntervals())).toBe('2024-01:[0,5)');
  });

  it('keeps articles of different years apart even with equal doc_ix', () => {
    const set = new ArticleSet();
    for (const p of pagesOf('2023-12', '2023', [1, 1], [], () => true)) set.addPage(p);
    for (const p of pagesOf('2024-01', '2024', [1], [], () => true)) set.addPage(p);
    expect(set.articles().map((a) => a.key)).toEqual(['2023:1', '2024:1']);
    expect(formatIntervals(set.examinedIntervals())).toBe('2023-12:[0,2) 2024-01:[0,1)');
  });

  it('equals a brute-force count over all ranks, however the ranks are cut into pages', () => {
    const shard = fc.array(fc.nat(20), { maxLength: 80 });
    fc.assert(
      fc.property(shard, shard, fc.array(fc.nat(100), { maxLength: 8 }), fc.nat(20), (a, b, cuts, drop) => {
        const keep = (d: number) => d !== drop;
        const set = new ArticleSet();
        for (const p of [...pagesOf('2023-05', '2023', a, cuts, keep), ...pagesOf('2024-02', '2024', b, cuts, keep)])
          set.addPage(p);
        const expected = new Map<string, number>();
        for (const [year, docs] of [
          ['2023', a],
          ['2024', b],
        ] as const) {
          for (const d of docs) if (keep(d)) expected.set(`${year}:${d}`, (expected.get(`${year}:${d}`) ?? 0) + 1);
        }
        expect(new Map(set.articles().map((x) => [x.key, x.occurrences]))).toEqual(expected);
        const t = set.totals();
        expect(t.matchingArticles).toBe(expected.size);
        expect(t.matchingOccurrences).toBe([...expected.values()].reduce((x, y) => x + y, 0));
        expect(t.examinedOccurrences).toBe(a.length + b.length);
      }),
    );
  });
});
