import { Type } from '@sinclair/typebox';
import type { OpenRelease, ShardHandle } from '../../release/types.ts';
import { V2Error } from '../errors.ts';
import { shardsInYears } from '../find.ts';
import { lookupIndex } from '../release-lookup.ts';
import { nullable, year, type WireOf } from '../schema/fields.ts';
import { crawlPeriodOf } from '../timeline.ts';

export const MAX_PERIODS = 240;

/** Part of an index: crawl years, and optionally crawl periods within them. */
export const subcorpusFields = {
  year_min: year('First'),
  year_max: year('Last'),
  periods: Type.Optional(
    nullable(
      Type.Array(Type.String({ pattern: '^\\d{4}(-\\d{2})?$' }), {
        maxItems: MAX_PERIODS,
        description: `Crawl periods (YYYY-MM, or YYYY for every period of a year), at most ${MAX_PERIODS}; omitted or null: every period of the years.`,
      }),
    ),
  ),
};
export const Subcorpus = Type.Object(subcorpusFields);
export type Subcorpus = WireOf<typeof Subcorpus>;

const inPeriod = (shardId: string, period: string): boolean => {
  const p = crawlPeriodOf(shardId);
  return p === period || p.startsWith(`${period}-`);
};

/**
 * The shards of `index` in the subcorpus, chronological. A period that no shard of the release covers is refused
 * (a typo must not read as a zero).
 */
export function shardsOfSubcorpus(release: OpenRelease, indexName: string, sub: Subcorpus): readonly ShardHandle[] {
  const shards = shardsInYears(release, {
    index: indexName,
    query: '',
    year_min: sub.year_min ?? null,
    year_max: sub.year_max ?? null,
  });
  const periods = sub.periods;
  if (periods === undefined || periods === null) return shards;
  const index = lookupIndex(release, indexName);
  const all = index.releaseShards ?? index.shards;
  const unknown = periods.find((p) => !all.some((s) => inPeriod(s.shardId, p)));
  if (unknown !== undefined)
    throw new V2Error(
      'unknown_period',
      `crawl period ${unknown} is not in index ${indexName}; see the periods of /api/v2/timeline`,
      { period: unknown },
    );
  return shards.filter((s) => periods.some((p) => inPeriod(s.shardId, p)));
}

/** The crawl years a subcorpus can touch, for routing over workers that hold some years. */
export function yearsOfSubcorpus(sub: Subcorpus): { year_min: number | null; year_max: number | null } {
  const years = (sub.periods ?? []).map((p) => Number(p.slice(0, 4)));
  const lo = [sub.year_min, years.length > 0 ? Math.min(...years) : null].filter(
    (y): y is number => typeof y === 'number',
  );
  const hi = [sub.year_max, years.length > 0 ? Math.max(...years) : null].filter(
    (y): y is number => typeof y === 'number',
  );
  return { year_min: lo.length > 0 ? Math.max(...lo) : null, year_max: hi.length > 0 ? Math.min(...hi) : null };
}
