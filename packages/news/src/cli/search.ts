import type { Command } from 'commander';
import { openRelease } from '../release/index.ts';
import { search, V2Error } from '../search-v2/index.ts';
import type { CliContext, CliCommand } from './context.ts';
import { action, UsageError } from './fail.ts';
import { queriesAndYears, withReleaseQueryOptions, type ReleaseQueryFlags } from './release-queries.ts';


/**
 * `news search`: one JSON line per query of the query language, `{"query","articles","exact","by_shard":{shard_id:
 * articles}}` (query in canonical form, plus `interval`, `sample`, `notes` and `expansions`); a refused query prints
 * `{"query","error":{code,detail,…}}` instead, the other queries still run, and the exit status is 1.
 */
export const searchCommand: CliCommand = (program: Command, ctx) => {
  withReleaseQueryOptions(program
    .command('search')
    .description('count the articles matching queries of the query language (AND, OR, NOT, NEAR/n, word*, "phrases")')
    .argument('[query...]', 'queries in the text form of the query language (quote each for the shell)'))
    .action(action(ctx, 'search', async (args: string[], flags: ReleaseQueryFlags) => runSearch(ctx, args, flags)));
};

async function runSearch(ctx: CliContext, args: string[], flags: ReleaseQueryFlags): Promise<void> {
  const { yearMin, yearMax, queries } = await queriesAndYears(args, flags);

  const release = await openRelease(flags.release, { mode: flags.disk ? 'disk' : 'memory' });
  try {
    if (!release.indexes.has(flags.index)) {
      throw new UsageError(`release ${flags.release} has no index ${JSON.stringify(flags.index)}; it has ${[...release.indexes.keys()].join(', ')}`);
    }
    for (const query of queries) {
      try {
        const r = await search(release, {
          index: flags.index, query, year_min: yearMin ?? null, year_max: yearMax ?? null, page_size: 0,
          case: flags.ignoreCase ? 'insensitive' : 'sensitive', whole_word: flags.wholeWord,
        });
        const byShard = Object.fromEntries(r.by_shard.map((s) => [s.shard_id, s.articles]));
        ctx.stdout.write(JSON.stringify({
          query: r.query, articles: r.articles, exact: r.exact, interval: r.interval, sample: r.sample, by_shard: byShard, notes: r.notes, expansions: r.expansions,
        }) + '\n');
      } catch (e) {
        if (!(e instanceof V2Error)) throw e;
        ctx.stdout.write(JSON.stringify({ query, error: e.toBody() }) + '\n');
        process.exitCode = 1;
      }
    }
  } finally {
    release.close();
  }
}
