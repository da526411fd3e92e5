import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FindResult as V2FindResult, TimelineResult as V2TimelineResult } from '../types.ts';
import { V2_CALLS, type Routing } from './index.ts';

// Each call's one combine, as the gateway uses it across workers (the worker uses it across its shards).
const combineOf = <B, A>(routing: Routing<B, A>) => {
  if (!('combine' in routing)) throw new Error(`routing by ${routing.by} has no combine`);
  const combine = routing.combine;
  return (order: readonly string[], parts: readonly A[], indexVersion: string, body?: B) =>
    combine(parts, { order, indexVersion }, body as B, new Map());
};
const mergeV2Find = combineOf(V2_CALLS.v2_find.routing);
const mergeV2Timeline = combineOf(V2_CALLS.v2_timeline.routing);
const mergeV2Info = combineOf(V2_CALLS.v2_info.routing);

/** A release's shards in order (periods, some split into parts) with 1–3 intervals each, and a split among workers. */
const scenario = fc
  .record({
    periods: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 1, maxLength: 12 }),
    intervals: fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 40, maxLength: 40 }),
    owner: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 40, maxLength: 40 }),
    seed: fc.integer(),
  })
  .map(({ periods, intervals, owner, seed }) => {
    const shards = periods
      .flatMap((parts, p) => {
        const period = `${2000 + Math.floor(p / 12)}-${String((p % 12) + 1).padStart(2, '0')}`;
        return parts === 1
          ? [{ id: period, period }]
          : Array.from({ length: parts }, (_, k) => ({ id: `${period}.p00${k + 1}`, period }));
      })
      .slice(0, 40);
    return { shards, intervals, owner, seed };
  });

function findOf(shards: readonly { id: string }[], intervals: readonly number[]): V2FindResult {
  const seg: [number, number][] = [];
  const ids: string[] = [];
  shards.forEach((s, i) => {
    for (let k = 0; k < (intervals[i] ?? 1); k++) {
      seg.push([i * 10 + k, i * 10 + k + 1 + i]);
      ids.push(s.id);
    }
  });
  const total = seg.reduce((n, [lo, hi]) => n + hi - lo, 0);
  return {
    index_version: 'v',
    total_occurrences: total,
    segment_by_shard: seg,
    shard_ids: ids,
    shard_years: ids.map((id) => id.slice(0, 4)),
  };
}

/** Deterministic shuffle, so the parts arrive in any order. */
function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs];
  let s = seed >>> 0;
  for (let i = out.length - 1; i > 0; i--) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe("combining answers for disjoint shard sets (workers, or one worker's shards)", () => {
  it('find: any split of the shards among workers, answers in any order, merges to the one-worker answer', () => {
    fc.assert(
      fc.property(scenario, ({ shards, intervals, owner, seed }) => {
        const order = shards.map((s) => s.id);
        const whole = findOf(shards, intervals);
        // Each worker's answer: the whole answer's entries of the shards it holds, in order.
        const partsFromWhole = [0, 1, 2, 3]
          .map((w) => {
            const keep = whole.shard_ids.map((id) => owner[order.indexOf(id)] === w);
            const seg = whole.segment_by_shard.filter((_, i) => keep[i]);
            return {
              index_version: 'v',
              total_occurrences: seg.reduce((n, [lo, hi]) => n + hi - lo, 0),
              segment_by_shard: seg,
              shard_ids: whole.shard_ids.filter((_, i) => keep[i]),
              shard_years: whole.shard_years.filter((_, i) => keep[i]),
            };
          })
          .filter((p) => p.shard_ids.length > 0);
        expect(JSON.stringify(mergeV2Find(order, shuffled(partsFromWhole, seed), 'v'))).toBe(JSON.stringify(whole));
      }),
    );
  });

  it('timeline: periods whose parts sit on different workers are summed, in chronological order', () => {
    fc.assert(
      fc.property(scenario, ({ shards, owner, seed }) => {
        const order = shards.map((s) => s.id);
        const timeline = (keep: (i: number) => boolean): V2TimelineResult => {
          const periods = new Map<
            string,
            {
              period: string;
              year: string;
              occurrences: number;
              articles: number;
              text_bytes: number;
              shard_ids: string[];
            }
          >();
          let total = 0;
          shards.forEach((s, i) => {
            if (!keep(i)) return;
            let e = periods.get(s.period);
            if (e === undefined)
              periods.set(
                s.period,
                (e = {
                  period: s.period,
                  year: s.period.slice(0, 4),
                  occurrences: 0,
                  articles: 0,
                  text_bytes: 0,
                  shard_ids: [],
                }),
              );
            e.occurrences += i;
            e.articles += 2 * i + 1;
            e.text_bytes += 100 * i;
            e.shard_ids.push(s.id);
            total += i;
          });
          return { index_version: 'v', query: 'q', total_occurrences: total, periods: [...periods.values()] };
        };
        const parts = [0, 1, 2, 3].map((w) => timeline((i) => owner[i] === w)).filter((t) => t.periods.length > 0);
        expect(JSON.stringify(mergeV2Timeline(order, shuffled(parts, seed), 'v'))).toBe(
          JSON.stringify(timeline(() => true)),
        );
      }),
    );
  });

  const filterSupport = (withTopics: boolean) => ({
    languages: { available: true, reason: null },
    commonlingua_languages: { available: false, reason: 'no_values' as const },
    topics: withTopics ? { available: true, reason: null } : { available: false, reason: 'no_values' as const },
    sources: { available: true, reason: null },
    countries: { available: false, reason: 'no_attribution_table' as const },
  });

  it('info: documents add up and the date range spans the merged shards, parts named by their period', () => {
    const info = (ids: string[]) => ({
      name: 'news',
      index_version: 'v',
      document_count: ids.length * 10,
      date_range: { first: null, last: null },
      shards: ids.map((id) => ({ shard_id: id, year: id.slice(0, 4), documents: 10, bytes: 100 })),
      available_indexes: ['news'],
      filters: filterSupport(ids.includes('2019-02')),
    });
    const merged = mergeV2Info(
      ['2019-01.p001', '2019-01.p002', '2019-02', '2020-05.p003'],
      [info(['2019-02', '2020-05.p003']), info(['2019-01.p001', '2019-01.p002'])],
      'v',
    );
    expect(merged.document_count).toBe(40);
    expect(merged.date_range).toEqual({ first: '2019-01', last: '2020-05' });
    expect(merged.shards.map((s) => s.shard_id)).toEqual(['2019-01.p001', '2019-01.p002', '2019-02', '2020-05.p003']);
    // Topics have values only in the first part's years: the release serves the filter.
    expect(merged.filters.topics).toEqual({ available: true, reason: null });
    expect(merged.filters.countries).toEqual({ available: false, reason: 'no_attribution_table' });
  });
});
