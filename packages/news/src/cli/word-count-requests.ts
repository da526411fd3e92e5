import { readFile } from 'node:fs/promises';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Command } from 'commander';
import { openRelease } from '../release/index.ts';
import type { OpenRelease } from '../release/types.ts';
import { V2Error } from '../search-v2/index.ts';
import type { CliContext } from './context.ts';
import { UsageError } from './fail.ts';

/** Flags shared by `news frequencies` and `news keyness`. */
export interface WordCountFlags {
  release: string;
  index: string;
  ignoreCase: boolean;
  limit?: string;
  sampleSize?: string;
  seed?: string;
  requests?: string;
  disk: boolean;
  [subcorpusFlag: string]: unknown;
}

const SUBCORPUS_FLAGS = [
  ['year-min', '<year>', 'first crawl year'],
  ['year-max', '<year>', 'last crawl year'],
  ['periods', '<list>', 'crawl periods, comma-separated (YYYY-MM, or YYYY for a whole year)'],
  ['sources', '<list>', 'only articles of these hostnames or sitenames, comma-separated'],
  ['languages', '<list>', 'only articles in these languages, comma-separated'],
  ['countries', '<list>', 'only articles of publishers attributed to these countries, comma-separated'],
  ['topics', '<list>', 'only articles with one of these topic labels, comma-separated'],
  ['query', '<query>', 'only the articles matching this query (news query language, as news search)'],
] as const;

const camel = (flag: string) => flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Adds the subcorpus flags (`--<prefix>year-min` …) for the subcorpus named `which` ('' for the only one). */
export function subcorpusOptions(command: Command, prefix: string, which: string): Command {
  for (const [flag, arg, what] of SUBCORPUS_FLAGS) command.option(`--${prefix}${flag} ${arg}`, `${which}${what}`);
  return command
    .option(`--${prefix}query-ignore-case`, `${which}match the query under full Unicode case folding`, false)
    .option(`--${prefix}whole-word`, `${which}count the query's occurrences only as whole words`, false);
}

/** An integer flag: null when absent, NaN when not digits (the request's validation then names it). */
export const intFlag = (v: unknown): number | null =>
  typeof v !== 'string' ? null : /^\d+$/.test(v) ? Number(v) : NaN;

/** The subcorpus fields of a request from the flags of `prefix`. */
export function subcorpusOfFlags(flags: WordCountFlags, prefix: string): Record<string, unknown> {
  const get = (flag: string) => flags[camel(`${prefix}${flag}`)];
  const list = (flag: string) => {
    const v = get(flag);
    return typeof v === 'string' ? v.split(',').map((p) => p.trim()) : null;
  };
  const query = get('query');
  return {
    year_min: intFlag(get('year-min')),
    year_max: intFlag(get('year-max')),
    periods: list('periods'),
    sources: list('sources'),
    languages: list('languages'),
    countries: list('countries'),
    topics: list('topics'),
    query: typeof query === 'string' ? query : null,
    query_case: get('query-ignore-case') === true ? 'insensitive' : 'sensitive',
    whole_word: get('whole-word') === true,
  };
}

/** The options every word-count request takes from the flags. */
export const commonOfFlags = (f: WordCountFlags) => ({
  index: f.index,
  case: f.ignoreCase ? 'insensitive' : 'sensitive',
  limit: intFlag(f.limit),
  sample_size: intFlag(f.sampleSize),
  seed: intFlag(f.seed),
});

/** Adds the flags every word-count command takes besides its subcorpora. */
export function wordCountOptions(command: Command, call: string, limits: string): Command {
  return command
    .requiredOption('--release <dir>', 'release directory built by news build')
    .option('--index <name>', 'index name', 'news')
    .option('--ignore-case', 'count words equal under full Unicode case folding as one', false)
    .option('--limit <n>', limits)
    .option('--sample-size <n>', 'articles sampled when a filtered or query subcorpus is past its exact bound')
    .option('--seed <n>', 'seed of that sample (default 1)')
    .option('--requests <file>', `one request body (JSON, as for POST /api/v2/${call}) per line, instead of the flags`)
    .option('--disk', 'read shards from disk instead of loading them into memory', false);
}

async function requestsOf(f: WordCountFlags, fromFlags: () => unknown): Promise<unknown[]> {
  if (f.requests === undefined) return [fromFlags()];
  let text: string;
  try {
    text = await readFile(f.requests, 'utf8');
  } catch (e) {
    throw new UsageError(
      `cannot read --requests ${f.requests} (${(e as Error).message}); pass a file with one JSON request per line`,
    );
  }
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line, i) => {
      try {
        return { index: f.index, ...(JSON.parse(line) as object) };
      } catch {
        throw new UsageError(`--requests ${f.requests} line ${i + 1} is not JSON`);
      }
    });
}

/**
 * Runs each request (the flags' one, or one per line of `--requests`) and prints its answer as one JSON line; a
 * refused request prints `{"request","error":{code,detail,…}}`, the others still run, and the exit status is 1.
 */
export async function runWordCountRequests<S extends TSchema>(
  ctx: CliContext,
  flags: WordCountFlags,
  schema: S,
  fromFlags: () => unknown,
  run: (release: OpenRelease, request: never) => Promise<unknown>,
): Promise<void> {
  const requests = await requestsOf(flags, fromFlags);
  const release = await openRelease(flags.release, { mode: flags.disk ? 'disk' : 'memory' });
  try {
    for (const request of requests) {
      if (!Value.Check(schema, request)) {
        const first = Value.Errors(schema, request).First();
        ctx.stdout.write(
          JSON.stringify({
            request,
            error: { code: 'invalid_request', detail: `${first?.path || '/'}: ${first?.message ?? 'invalid'}` },
          }) + '\n',
        );
        process.exitCode = 1;
        continue;
      }
      try {
        ctx.stdout.write(JSON.stringify(await run(release, request as never)) + '\n');
      } catch (e) {
        if (!(e instanceof V2Error)) throw e;
        ctx.stdout.write(JSON.stringify({ request, error: e.toBody() }) + '\n');
        process.exitCode = 1;
      }
    }
  } finally {
    release.close();
  }
}
