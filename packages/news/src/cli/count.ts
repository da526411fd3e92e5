import type { Command } from 'commander';
import { openRelease } from '../release/index.ts';
import { matchBudget, matchPrepared, MatchingError, prepareMatch } from '../matching/index.ts';
import type { CliContext, CliCommand } from './context.ts';
import { action, UsageError } from './fail.ts';
import { queriesAndYears, withReleaseQueryOptions, type ReleaseQueryFlags } from './release-queries.ts';

/** `news count`: one JSON line per query, `{"query","count","by_shard":{shard_id:count}}`, for scripts and checks. */
export const countCommand: CliCommand = (program: Command, ctx) => {
  withReleaseQueryOptions(
    program
      .command('count')
      .description('count occurrences of exact byte strings in a release, per shard and in total')
      .argument('[query...]', 'queries (UTF-8, matched byte-exact and case-sensitive unless --ignore-case)'),
  ).action(action(ctx, 'count', async (args: string[], flags: ReleaseQueryFlags) => runCount(ctx, args, flags)));
};

async function runCount(ctx: CliContext, args: string[], flags: ReleaseQueryFlags): Promise<void> {
  const selected = await queriesAndYears(args, flags);
  const { queries } = selected;
  const yearMin = selected.yearMin ?? -Infinity;
  const yearMax = selected.yearMax ?? Infinity;

  const release = await openRelease(flags.release, { mode: flags.disk ? 'disk' : 'memory' });
  try {
    const index = release.indexes.get(flags.index);
    if (!index) {
      throw new UsageError(
        `release ${flags.release} has no index ${JSON.stringify(flags.index)}; it has ${[...release.indexes.keys()].join(', ')}`,
      );
    }
    const shards = index.shards.filter((s) => Number(s.year) >= yearMin && Number(s.year) <= yearMax);
    const options = { caseInsensitive: flags.ignoreCase, wholeWord: flags.wholeWord };
    for (const query of queries) {
      const byShard: Record<string, number> = {};
      let count = 0;
      const budget = matchBudget();
      try {
        const prepared = prepareMatch(query, options);
        for (const s of shards) {
          const n =
            query === '' ? s.reader.count(new Uint8Array(0)) : await matchPrepared(s.reader, prepared, budget).count();
          byShard[s.shardId] = n;
          count += n;
        }
      } catch (e) {
        if (e instanceof MatchingError) throw new UsageError(`query ${JSON.stringify(query)}: ${e.message}`);
        throw e;
      }
      ctx.stdout.write(JSON.stringify({ query, count, by_shard: byShard }) + '\n');
    }
  } finally {
    release.close();
  }
}
