import type { Command } from 'commander';
import { openRelease } from '../release/index.ts';
import { search, V2Error } from '../search-v2/index.ts';
import type { CliContext, CliCommand } from './context.ts';
import { parseYear, readQueries } from './count.ts';
import { action, UsageError } from './fail.ts';

interface SearchFlags {
  release: string;
  index: string;
  yearMin?: string;
  yearMax?: string;
  disk: boolean;
  queries?: string;
  ignoreCase: boolean;
  wholeWord: boolean;
}

/**
 * `news search`: one JSON line per query of the query language, `{"query","articles","exact","by_shard":{shard_id:
 * articles}}` (query in canonical form, plus `notes` and `expansions`); a refused query prints
 * `{"query","error":{code,detail,…}}` instead, the other queries still run, and the exit status is 1.
 */
export const searchCommand: CliCommand = (program: Command, ctx) => {
  program
    .command('search')
    .description('count the articles matching queries of the query language (AND, OR, NOT, NEAR/n, word*, "phrases")')
    .argument('[query...]', 'queries in the text form of the query language (quote each for the shell)')
    .requiredOption('--release <dir>', 'release directory built by news build')
    .option('--index <name>', 'index name', 'news')
    .option('--year-min <year>', 'first crawl year to search')
    .option('--year-max <year>', 'last crawl year to search')
    .option('--disk', 'read shards from disk instead of loading them into memory', false)
    .option('--queries <file>', 'read queries from a file, one per line')
    .option('--ignore-case', 'match every spelling equal under full Unicode case folding', false)
    .option('--whole-word', 'a term matches only where it is not preceded or followed by a letter or digit', false)
    .action(action(ctx, 'search', async (args: string[], flags: SearchFlags) => runSearch(ctx, args, flags)));
};

async function runSearch(ctx: CliContext, args: string[], flags: SearchFlags): Promise<void> {
  const yearMin = parseYear(flags.yearMin, '--year-min') ?? null;
  const yearMax = parseYear(flags.yearMax, '--year-max') ?? null;
  if (yearMin !== null && yearMax !== null && yearMin > yearMax) throw new UsageError(`--year-min ${yearMin} is after --year-max ${yearMax}; swap them`);
  const queries = [...args];
  if (flags.queries) queries.push(...(await readQueries(flags.queries)));
  if (queries.length === 0) throw new UsageError('no query given; pass QUERY... or --queries FILE (one query per line)');

  const release = await openRelease(flags.release, { mode: flags.disk ? 'disk' : 'memory' });
  try {
    if (!release.indexes.has(flags.index)) {
      throw new UsageError(`release ${flags.release} has no index ${JSON.stringify(flags.index)}; it has ${[...release.indexes.keys()].join(', ')}`);
    }
    for (const query of queries) {
      try {
        const r = await search(release, {
          index: flags.index, query, year_min: yearMin, year_max: yearMax, page_size: 0,
          case: flags.ignoreCase ? 'insensitive' : 'sensitive', whole_word: flags.wholeWord,
        });
        const byShard = Object.fromEntries(r.by_shard.map((s) => [s.shard_id, s.articles]));
        ctx.stdout.write(JSON.stringify({ query: r.query, articles: r.articles, exact: r.exact, by_shard: byShard, notes: r.notes, expansions: r.expansions }) + '\n');
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
