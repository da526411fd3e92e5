import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { openRelease } from '../release/index.ts';
import { matchBudget, matchPrepared, MatchingError, prepareMatch } from '../matching/index.ts';
import type { CliContext, CliCommand } from './context.ts';
import { action, UsageError } from './fail.ts';

interface CountFlags {
  release: string;
  index: string;
  yearMin?: string;
  yearMax?: string;
  disk: boolean;
  queries?: string;
  ignoreCase: boolean;
  wholeWord: boolean;
}

/** `news count`: one JSON line per query, `{"query","count","by_shard":{shard_id:count}}`, for scripts and checks. */
export const countCommand: CliCommand = (program: Command, ctx) => {
  program
    .command('count')
    .description('count occurrences of exact byte strings in a release, per shard and in total')
    .argument('[query...]', 'queries (UTF-8, matched byte-exact and case-sensitive unless --ignore-case)')
    .requiredOption('--release <dir>', 'release directory built by news build')
    .option('--index <name>', 'index name', 'news')
    .option('--year-min <year>', 'first crawl year to search')
    .option('--year-max <year>', 'last crawl year to search')
    .option('--disk', 'read shards from disk instead of loading them into memory', false)
    .option('--queries <file>', 'read queries from a file, one per line')
    .option('--ignore-case', 'match every spelling equal under full Unicode case folding (ß ~ SS, Σ/σ/ς)', false)
    .option('--whole-word', 'count only occurrences not preceded or followed by a letter or digit', false)
    .action(action(ctx, 'count', async (args: string[], flags: CountFlags) => runCount(ctx, args, flags)));
};

async function runCount(ctx: CliContext, args: string[], flags: CountFlags): Promise<void> {
  const yearMin = parseYear(flags.yearMin, '--year-min') ?? -Infinity;
  const yearMax = parseYear(flags.yearMax, '--year-max') ?? Infinity;
  if (yearMin > yearMax) throw new UsageError(`--year-min ${yearMin} is after --year-max ${yearMax}; swap them`);
  const queries = [...args];
  if (flags.queries) queries.push(...(await readQueries(flags.queries)));
  if (queries.length === 0) throw new UsageError('no query given; pass QUERY... or --queries FILE (one query per line)');

  const release = await openRelease(flags.release, { mode: flags.disk ? 'disk' : 'memory' });
  try {
    const index = release.indexes.get(flags.index);
    if (!index) {
      throw new UsageError(`release ${flags.release} has no index ${JSON.stringify(flags.index)}; it has ${[...release.indexes.keys()].join(', ')}`);
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
          const n = query === '' ? s.reader.count(new Uint8Array(0)) : await matchPrepared(s.reader, prepared, budget).count();
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

export function parseYear(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d{4}$/.test(v)) throw new UsageError(`${flag} ${JSON.stringify(v)} is not a four-digit year`);
  return Number(v);
}

export async function readQueries(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read --queries ${file} (${(e as Error).message}); pass a UTF-8 file with one query per line`);
  }
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  // The newline that ends the last line does not start another (empty) query.
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
