/**
 * The crawl period a shard belongs to: its id up to the first `.` (a part of a period, `2019-03.p001`, counts
 * toward `2019-03`; monthly `YYYY-MM` and yearly `YYYY` shards are their own period).
 */
export function crawlPeriodOf(shardId: string): string {
  const dot = shardId.indexOf('.');
  return dot === -1 ? shardId : shardId.slice(0, dot);
}
