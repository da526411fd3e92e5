import type { Command } from 'commander';
import { FrequenciesRequest } from '../search-v2/calls/frequencies.ts';
import { frequencies } from '../search-v2/frequencies/frequencies.ts';
import type { WireOf } from '../search-v2/schema/fields.ts';
import type { CliCommand } from './context.ts';
import { action } from './fail.ts';
import {
  commonOfFlags,
  runWordCountRequests,
  subcorpusOfFlags,
  subcorpusOptions,
  wordCountOptions,
  type WordCountFlags,
} from './word-count-requests.ts';

/**
 * `news frequencies`: the top words of crawl years or periods, of filtered articles or of a query's articles, one
 * JSON line per request (the answer of POST /api/v2/frequencies). One request from the flags, or one per line of
 * `--requests FILE` (request bodies as JSON); a refused request prints `{"request","error":{code,detail,…}}`, the
 * others still run, and the exit status is 1.
 */
export const frequenciesCommand: CliCommand = (program: Command, ctx) => {
  const command = program
    .command('frequencies')
    .description(
      'top words of crawl years or periods (from the word-count tables), or of filtered or query-matching articles, with counts and rates per million words',
    );
  subcorpusOptions(wordCountOptions(command, 'frequencies', 'words listed (1–1000, default 100)'), '', '').action(
    action(ctx, 'frequencies', async (flags: WordCountFlags) =>
      runWordCountRequests(
        ctx,
        flags,
        FrequenciesRequest,
        () => ({ ...commonOfFlags(flags), ...subcorpusOfFlags(flags, '') }),
        (release, request: WireOf<typeof FrequenciesRequest>) => frequencies(release, request),
      ),
    ),
  );
};
