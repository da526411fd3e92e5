import { Type } from '@sinclair/typebox';
import type { OpenRelease, ShardHandle } from '../../release/types.ts';
import { V2Error } from '../errors.ts';
import { shardsInYears } from '../find.ts';
import { lookupIndex } from '../release-lookup.ts';
import { REQUEST_BOUNDS } from '../limits.ts';
import { hasNoFilter } from '../filters.ts';
import { filters, nullable, year, type WireOf } from '../schema/fields.ts';
import { crawlPeriodOf } from '../timeline.ts';

export const MAX_PERIODS = 240;

/** `sensitive` or `insensitive`, as the word-count calls name a case mode. */
export const caseName = () =>
  Type.Unsafe<'sensitive' | 'insensitive'>(Type.String({ enum: ['sensitive', 'insensitive'] }));

/**
 * Part of an index: crawl years, optionally crawl periods within them, the metadata filters of the other v2 calls,
 * and optionally a query (news query language, as POST /api/v2/search) whose matching articles are the subcorpus.
 * With neither filters nor query the words come from the word-count tables; otherwise the selected articles are
 * counted (subcorpus-counts.ts).
 */
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
  ...filters,
  query: Type.Optional(
    nullable(
      Type.String({
        minLength: 1,
        maxLength: REQUEST_BOUNDS.queryMaxLength,
        description:
          'Only the articles matching this query (text form of the news query language, as POST /api/v2/search).',
      }),
    ),
  ),
  query_tree: Type.Optional(
    Type.Unknown({
      description: 'The query in JSON form (the query_tree of a search answer); at most one of the two.',
    }),
  ),
  query_case: Type.Optional(
    Type.Union([caseName(), Type.Null()], {
      default: 'sensitive',
      description: "The query's matching: insensitive matches every spelling equal under full case folding.",
    }),
  ),
  whole_word: Type.Optional(
    Type.Union([Type.Boolean(), Type.Null()], {
      default: false,
      description: "The query's matching: count an occurrence only when it is a whole word.",
    }),
  ),
};
export const Subcorpus = Type.Object(subcorpusFields);
export type Subcorpus = WireOf<typeof Subcorpus>;

/** True when the subcorpus is whole crawl periods (its words are the tables'), false when its articles are counted. */
export const isWholePeriods = (sub: Subcorpus): boolean =>
  hasNoFilter(sub) && (sub.query ?? null) === null && (sub.query_tree ?? null) === null;

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
