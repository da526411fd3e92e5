import type { Command } from 'commander';
import type { TObject } from '@sinclair/typebox';
import { ValidationFailed } from '../gateway/errors/errors.ts';
import { validateBody } from '../gateway/validation/index.ts';
import { openRelease, type OpenRelease } from '../release/index.ts';
import { CollocationsRequest } from '../search-v2/calls/collocations.ts';
import { NgramsRequest } from '../search-v2/calls/ngrams.ts';
import { collocations, ngrams, V2Error } from '../search-v2/index.ts';
import type { WireOf } from '../search-v2/schema/fields.ts';
import type { CliContext, CliCommand } from './context.ts';
import { action, UsageError } from './fail.ts';
import { queriesAndYears, withReleaseQueryOptions, type ReleaseQueryFlags } from './release-queries.ts';

/** Flags of the analysis commands besides the shared query flags; each maps to the request field of the same meaning. */
export interface AnalysisFlags extends ReleaseQueryFlags {
  languages?: string;
  sources?: string;
  topics?: string;
  seed?: string;
  limit?: string;
}

const list = (v: string | undefined): string[] | null =>
  v === undefined
    ? null
    : v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '');
const int = (v: string | undefined, flag: string): number | undefined => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`${flag} ${JSON.stringify(v)} is not a whole number`);
  return Number(v);
};

/** Adds the shared flags of `news ngrams` and `news collocations`. */
export function withAnalysisOptions(command: Command): Command {
  return withReleaseQueryOptions(command)
    .option('--languages <codes>', 'keep articles whose language is one of these (comma-separated)')
    .option('--sources <names>', 'keep articles whose hostname or sitename is one of these (comma-separated)')
    .option('--topics <labels>', 'keep articles with one of these topic labels (comma-separated)')
    .option('--limit <n>', 'entries listed per query, most frequent first')
    .option('--seed <n>', 'seed of the samples of shards over the exact bound');
}

/**
 * Runs one v2 analysis per query over a release opened in this process, the request checked by the public route's
 * own validation (same bounds and defaults as over HTTP); prints one JSON line per query (`shape` of the answer),
 * or `{"query","error":{code,detail}}` for a refused query (exit status 1; the other queries still run).
 */
export async function runAnalysis<S extends TObject, A>(
  ctx: CliContext,
  args: string[],
  flags: AnalysisFlags,
  request: S,
  run: (release: OpenRelease, body: WireOf<S>) => Promise<A>,
  extra: Record<string, unknown>,
  shape: (answer: A) => unknown,
): Promise<void> {
  const { yearMin, yearMax, queries } = await queriesAndYears(args, flags);
  const release = await openRelease(flags.release, { mode: flags.disk ? 'disk' : 'memory' });
  try {
    for (const query of queries) {
      const raw = {
        index: flags.index,
        query,
        year_min: yearMin ?? null,
        year_max: yearMax ?? null,
        case: flags.ignoreCase ? 'insensitive' : 'sensitive',
        whole_word: flags.wholeWord,
        languages: list(flags.languages),
        sources: list(flags.sources),
        topics: list(flags.topics),
        ...(flags.limit === undefined ? {} : { limit: int(flags.limit, '--limit') }),
        ...(flags.seed === undefined ? {} : { seed: int(flags.seed, '--seed') }),
        ...extra,
      };
      try {
        const answer = await run(release, validateBody(request, { kind: 'json', value: raw }) as WireOf<S>);
        ctx.stdout.write(JSON.stringify(shape(answer)) + '\n');
      } catch (e) {
        if (e instanceof ValidationFailed) {
          throw new UsageError(e.issues.map((i) => `${i.loc.slice(1).join('.')}: ${i.msg}`).join('; '));
        }
        if (!(e instanceof V2Error)) throw e;
        ctx.stdout.write(JSON.stringify({ query, error: e.toBody() }) + '\n');
        process.exitCode = 1;
      }
    }
  } finally {
    release.close();
  }
}

/** One option of an analysis command: commander flags, help text, default. */
type OptionSpec = readonly [flags: string, help: string, fallback: string | boolean];

/** What tells the analysis commands apart: their name, own flags, the request fields these give, and the printed shape. */
interface AnalysisCommandSpec<S extends TObject, A, F> {
  readonly name: string;
  readonly description: string;
  readonly options: readonly OptionSpec[];
  readonly request: S;
  readonly run: (release: OpenRelease, body: WireOf<S>) => Promise<A>;
  /** The request fields the command's own flags give. */
  readonly fields: (flags: F) => Record<string, unknown>;
  readonly shape: (answer: A) => unknown;
}

/**
 * One analysis command: the shared query and filter flags, its own flags, one JSON line per query (`runAnalysis`).
 * @example analysisCommand({ name: 'ngrams', options: [['--words <n>', 'words', '1']], request: NgramsRequest, … })
 */
export function analysisCommand<S extends TObject, A, F>(spec: AnalysisCommandSpec<S, A, F>): CliCommand {
  return (program: Command, ctx) => {
    let command = withAnalysisOptions(
      program
        .command(spec.name)
        .description(spec.description)
        .argument('[query...]', 'phrases (quote each for the shell)'),
    );
    for (const [flags, help, fallback] of spec.options) command = command.option(flags, help, fallback);
    command.action(
      action(ctx, spec.name, async (args: string[], flags: AnalysisFlags & F) => {
        await runAnalysis(ctx, args, flags, spec.request, spec.run, spec.fields(flags), spec.shape);
      }),
    );
  };
}

/** `news ngrams`: one JSON line per query, `{"query","direction","mode","total_occurrences","continuations":[{words,count,share}]}`. */
export const ngramsCommand = analysisCommand({
  name: 'ngrams',
  description: 'the 1–3 words that follow (or precede) each phrase, with counts and shares',
  options: [
    ['--direction <side>', 'right (the words that follow) or left (the words that precede)', 'right'],
    ['--words <n>', 'words in each continuation, 1–3', '1'],
    ['--complete', "complete the phrase's partial last word (econom → economy, economic…)", false],
  ],
  request: NgramsRequest,
  run: (release, body) => ngrams(release, body),
  fields: (flags: { direction: string; words: string; complete: boolean }) => ({
    direction: flags.direction,
    words: int(flags.words, '--words'),
    complete: flags.complete,
  }),
  shape: (a) => ({
    query: a.query,
    direction: a.direction,
    mode: a.mode,
    total_occurrences: a.total_occurrences,
    continuations: a.continuations,
  }),
});

/** `news collocations`: one JSON line per query, `{"query","mode","node_frequency","corpus_words","collocates":[…]}` as the v2 call answers. */
export const collocationsCommand = analysisCommand({
  name: 'collocations',
  description: "the words within a window of each phrase's occurrences, with logDice, MI and log-likelihood",
  options: [
    ['--left <n>', 'words before each occurrence, 0–10', '5'],
    ['--right <n>', 'words after each occurrence, 0–10', '5'],
    ['--by-position', 'also count each collocate at every window position', false],
    ['--sort-by <measure>', 'log_dice, mi, log_likelihood or frequency', 'log_dice'],
    ['--min-frequency <n>', 'least window frequency of a listed collocate', '2'],
  ],
  request: CollocationsRequest,
  run: (release, body) => collocations(release, body),
  fields: (flags: { left: string; right: string; byPosition: boolean; sortBy: string; minFrequency: string }) => ({
    left: int(flags.left, '--left'),
    right: int(flags.right, '--right'),
    by_position: flags.byPosition,
    sort_by: flags.sortBy,
    min_frequency: int(flags.minFrequency, '--min-frequency'),
  }),
  shape: (a) => ({
    query: a.query,
    mode: a.mode,
    total_occurrences: a.total_occurrences,
    node_frequency: a.node_frequency,
    corpus_words: a.corpus_words,
    collocates: a.collocates,
  }),
});
