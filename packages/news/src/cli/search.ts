import { Option, type Command } from 'commander';
import { openRelease } from '../release/index.ts';
import { search, V2Error } from '../search-v2/index.ts';
import type { CliContext, CliCommand } from './context.ts';
import { action, UsageError } from './fail.ts';
import { queriesAndYears, withReleaseQueryOptions, type ReleaseQueryFlags } from './release-queries.ts';

type SearchFlags = ReleaseQueryFlags & { dedupe: 'none' | 'exact' | 'near' };

/**
 * `news search`: one JSON line per query of the query language, `{"query","articles","exact","by_shard":{shard_id:
 * articles}}` (query in canonical form, plus `interval`, `sample`, `notes` and `expansions`; with `--dedupe exact|near`
 * also `stories`, the distinct stories among the articles, and `stories_interval`, its 95% interval); a refused query prints
 * `{"query","error":{code,detail,…}}` instead, the other queries still run, and the exit status is 1.
 */
export const searchCommand: CliCommand = (program: Command, ctx) => {
  withReleaseQueryOptions(
    program
      .command('search')
      .description('count the articles matching queries of the query language (AND, OR, NOT, NEAR/n, word*, "phrases")')
      .argument('[query...]', 'queries in the text form of the query language (quote each for the shell)')
      .addOption(
        new Option(
          '--dedupe <mode>',
          "also count stories: exact merges equal texts, near also near duplicates (the release's story files)",
        )
          .choices(['none', 'exact', 'near'])
          .default('none'),
      ),
  ).action(action(ctx, 'search', async (args: string[], flags: SearchFlags) => runSearch(ctx, args, flags)));
};

async function runSearch(ctx: CliContext, args: string[], flags: SearchFlags): Promise<void> {
  const { yearMin, yearMax, queries } = await queriesAndYears(args, flags);

  const release = await openRelease(flags.release, { mode: flags.disk ? 'disk' : 'memory' });
  try {
    if (!release.indexes.has(flags.index)) {
      throw new UsageError(
        `release ${flags.release} has no index ${JSON.stringify(flags.index)}; it has ${[...release.indexes.keys()].join(', ')}`,
      );
    }
    for (const query of queries) {
      try {
        const r = await search(release, {
          index: flags.index,
          query,
          year_min: yearMin ?? null,
          year_max: yearMax ?? null,
          page_size: 0,
          case: flags.ignoreCase ? 'insensitive' : 'sensitive',
          whole_word: flags.wholeWord,
          dedupe: flags.dedupe,
        });
        const byShard = Object.fromEntries(r.by_shard.map((s) => [s.shard_id, s.articles]));
        const stories =
          r.stories === undefined ? {} : { stories: r.stories, stories_interval: r.stories_interval ?? null };
        ctx.stdout.write(
          JSON.stringify({
            query: r.query,
            articles: r.articles,
            ...stories,
            exact: r.exact,
            interval: r.interval,
            sample: r.sample,
            by_shard: byShard,
            notes: r.notes,
            expansions: r.expansions,
          }) + '\n',
        );
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
