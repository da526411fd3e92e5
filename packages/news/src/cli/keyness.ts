import type { Command } from 'commander';
import { KeynessRequest } from '../search-v2/calls/keyness.ts';
import { keyness } from '../search-v2/frequencies/keyness.ts';
import type { WireOf } from '../search-v2/schema/fields.ts';
import type { CliCommand } from './context.ts';
import { action } from './fail.ts';
import {
  commonOfFlags,
  intFlag,
  runWordCountRequests,
  subcorpusOfFlags,
  subcorpusOptions,
  wordCountOptions,
  type WordCountFlags,
} from './word-count-requests.ts';

/**
 * `news keyness`: keywords of subcorpus A against B and of B against A (log-likelihood and log ratio with both
 * counts), one JSON line per request (the answer of POST /api/v2/keyness). A and B from `--a-…` and `--b-…` flags
 * (`--b-rest`: the articles of A's periods that A does not hold), or one request per line of `--requests FILE`.
 */
export const keynessCommand: CliCommand = (program: Command, ctx) => {
  const command = program
    .command('keyness')
    .description(
      'keywords of one subcorpus (crawl periods, filters, a query) against another or against the rest of its periods',
    );
  wordCountOptions(command, 'keyness', 'words listed each way (1–1000, default 50)')
    .option('--min-count <n>', 'leave out words seen fewer times in A and B together')
    .option('--b-rest', "B is the rest of A's crawl periods (A needs filters or a query)", false);
  subcorpusOptions(command, 'a-', 'A: ');
  subcorpusOptions(command, 'b-', 'B: ').action(
    action(ctx, 'keyness', async (flags: WordCountFlags) =>
      runWordCountRequests(
        ctx,
        flags,
        KeynessRequest,
        () => ({
          ...commonOfFlags(flags),
          min_count: intFlag(flags['minCount']),
          a: subcorpusOfFlags(flags, 'a-'),
          b: flags['bRest'] === true ? 'rest' : subcorpusOfFlags(flags, 'b-'),
        }),
        (release, request: WireOf<typeof KeynessRequest>) => keyness(release, request),
      ),
    ),
  );
};
