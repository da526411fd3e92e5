import { readFile } from 'node:fs/promises';
import { Value } from '@sinclair/typebox/value';
import type { Command } from 'commander';
import { openRelease } from '../release/index.ts';
import { V2Error } from '../search-v2/index.ts';
import { FrequenciesRequest } from '../search-v2/calls/frequencies.ts';
import { frequencies } from '../search-v2/frequencies/frequencies.ts';
import type { WireOf } from '../search-v2/schema/fields.ts';
import type { CliCommand, CliContext } from './context.ts';
import { action, UsageError } from './fail.ts';

interface FrequenciesFlags {
  release: string;
  index: string;
  yearMin?: string;
  yearMax?: string;
  periods?: string;
  ignoreCase: boolean;
  limit?: string;
  requests?: string;
  disk: boolean;
}

type Request = WireOf<typeof FrequenciesRequest>;

/**
 * `news frequencies`: the top words of crawl years or periods, one JSON line per request (the answer of POST
 * /api/v2/frequencies). One request from the flags, or one per line of `--requests FILE` (request bodies as JSON);
 * a refused request prints `{"request","error":{code,detail,…}}`, the others still run, and the exit status is 1.
 */
export const frequenciesCommand: CliCommand = (program: Command, ctx) => {
  program
    .command('frequencies')
    .description(
      'top words of crawl years or periods with counts and rates per million words, from the word-count tables',
    )
    .requiredOption('--release <dir>', 'release directory built by news build')
    .option('--index <name>', 'index name', 'news')
    .option('--year-min <year>', 'first crawl year')
    .option('--year-max <year>', 'last crawl year')
    .option('--periods <list>', 'crawl periods, comma-separated (YYYY-MM, or YYYY for a whole year)')
    .option('--ignore-case', 'count words equal under full Unicode case folding as one', false)
    .option('--limit <n>', 'words listed (1–1000, default 100)')
    .option(
      '--requests <file>',
      'one request body (JSON, as for POST /api/v2/frequencies) per line, instead of the flags',
    )
    .option('--disk', 'read shards from disk instead of loading them into memory', false)
    .action(action(ctx, 'frequencies', async (flags: FrequenciesFlags) => runFrequencies(ctx, flags)));
};

function requestOfFlags(f: FrequenciesFlags): unknown {
  const int = (v: string | undefined): number | null => (v === undefined ? null : /^\d+$/.test(v) ? Number(v) : NaN);
  return {
    index: f.index,
    year_min: int(f.yearMin),
    year_max: int(f.yearMax),
    periods: f.periods === undefined ? null : f.periods.split(',').map((p) => p.trim()),
    case: f.ignoreCase ? 'insensitive' : 'sensitive',
    limit: int(f.limit),
  };
}

async function requestsOf(f: FrequenciesFlags): Promise<unknown[]> {
  if (f.requests === undefined) return [requestOfFlags(f)];
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

async function runFrequencies(ctx: CliContext, flags: FrequenciesFlags): Promise<void> {
  const requests = await requestsOf(flags);
  const release = await openRelease(flags.release, { mode: flags.disk ? 'disk' : 'memory' });
  try {
    for (const request of requests) {
      if (!Value.Check(FrequenciesRequest, request)) {
        const first = Value.Errors(FrequenciesRequest, request).First();
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
        ctx.stdout.write(JSON.stringify(await frequencies(release, request as Request)) + '\n');
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
