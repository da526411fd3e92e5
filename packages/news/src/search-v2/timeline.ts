import type { OpenRelease, ShardHandle } from '../release/types.ts';
import { WorkBudget } from '../work-budget/index.ts';
import { V2Error } from './errors.ts';
import { shardsInYears } from './find.ts';
import { RequestMatcher } from './matching.ts';
import type { FindRequest, TimelineResult, TimelinePeriod } from './types.ts';

/**
 * The crawl period a shard belongs to: its id up to the first `.` (a part of a period, `2019-03.p001`, counts
 * toward `2019-03`; monthly `YYYY-MM` and yearly `YYYY` shards are their own period).
 */
export function crawlPeriodOf(shardId: string): string {
  const dot = shardId.indexOf('.');
  return dot === -1 ? shardId : shardId.slice(0, dot);
}

function emptyPeriod(shard: ShardHandle): TimelinePeriod & { occurrences: number; articles: number; text_bytes: number; shard_ids: string[] } {
  return { period: crawlPeriodOf(shard.shardId), year: shard.year, occurrences: 0, articles: 0, text_bytes: 0, shard_ids: [] };
}

/**
 * v2 timeline: per crawl period of the selected years, the query's occurrences, the articles in the period and
 * their text bytes (separators excluded), so a client can plot occurrences per million bytes or per 1,000
 * articles instead of raw counts that mostly show how big each crawl month is. Periods without a match are
 * listed too (a zero is data). Parts of one period are summed.
 *
 * @example (await timeline(release, { index: 'news', query: 'oil prices' })).periods[0] // { period: '1987-03', occurrences: 12, … }
 */
export async function timeline(release: OpenRelease, request: FindRequest, work: WorkBudget = WorkBudget.unlimited()): Promise<TimelineResult> {
  if (request.query.length === 0) throw new V2Error('invalid_query', 'timeline needs a non-empty query');
  const matcher = new RequestMatcher(request.query, request, work);
  const periods = new Map<string, ReturnType<typeof emptyPeriod>>();
  let total = 0;
  for (const shard of shardsInYears(release, request)) {
    const key = crawlPeriodOf(shard.shardId);
    let entry = periods.get(key);
    if (entry === undefined) periods.set(key, (entry = emptyPeriod(shard)));
    const { docCount, textBytes } = shard.reader.stats;
    const n = await matcher.count(shard);
    entry.occurrences += n;
    entry.articles += docCount;
    entry.text_bytes += textBytes - docCount;
    entry.shard_ids.push(shard.shardId);
    total += n;
  }
  return { index_version: release.indexVersion, query: request.query, total_occurrences: total, periods: [...periods.values()] };
}
