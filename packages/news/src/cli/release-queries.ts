import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { UsageError } from './fail.ts';

/** Flags shared by the commands that run queries over a release (`news count`, `news search`). */
export interface ReleaseQueryFlags {
  release: string;
  index: string;
  yearMin?: string;
  yearMax?: string;
  disk: boolean;
  queries?: string;
  ignoreCase: boolean;
  wholeWord: boolean;
}

/** Adds the shared flags to a command (the same names and meanings in every query command). */
export function withReleaseQueryOptions(command: Command): Command {
  return command
    .requiredOption('--release <dir>', 'release directory built by news build')
    .option('--index <name>', 'index name', 'news')
    .option('--year-min <year>', 'first crawl year to search')
    .option('--year-max <year>', 'last crawl year to search')
    .option('--disk', 'read shards from disk instead of loading them into memory', false)
    .option('--queries <file>', 'read queries from a file, one per line')
    .option('--ignore-case', 'match every spelling equal under full Unicode case folding (ß ~ SS, Σ/σ/ς)', false)
    .option('--whole-word', 'count only occurrences not preceded or followed by a letter or digit', false);
}

/** The year range and the queries (arguments, then the file's lines), checked; usage errors say what to pass. */
export async function queriesAndYears(
  args: readonly string[],
  flags: ReleaseQueryFlags,
): Promise<{ yearMin: number | undefined; yearMax: number | undefined; queries: string[] }> {
  const yearMin = parseYear(flags.yearMin, '--year-min');
  const yearMax = parseYear(flags.yearMax, '--year-max');
  if (yearMin !== undefined && yearMax !== undefined && yearMin > yearMax)
    throw new UsageError(`--year-min ${yearMin} is after --year-max ${yearMax}; swap them`);
  const queries = [...args];
  if (flags.queries) queries.push(...(await readQueries(flags.queries)));
  if (queries.length === 0)
    throw new UsageError('no query given; pass QUERY... or --queries FILE (one query per line)');
  return { yearMin, yearMax, queries };
}

function parseYear(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d{4}$/.test(v)) throw new UsageError(`${flag} ${JSON.stringify(v)} is not a four-digit year`);
  return Number(v);
}

async function readQueries(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new UsageError(
      `cannot read --queries ${file} (${(e as Error).message}); pass a UTF-8 file with one query per line`,
    );
  }
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  // The newline that ends the last line does not start another (empty) query.
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
