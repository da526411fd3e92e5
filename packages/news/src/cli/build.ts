import { InvalidArgumentError, Option, type Command } from 'commander';
import { buildRelease, defaultBuildOptions, type IndexPlan, type ShardPeriod } from '../release/index.ts';
import { indexKinds, SHARD_KINDS, type ShardKind } from '../shard/index.ts';
import type { CliCommand } from './context.ts';
import { action } from './fail.ts';
import { withInterrupt } from './interrupt.ts';
import { createProgressReporter } from './progress-line.ts';

interface BuildFlags {
  input: string[];
  out: string;
  indexVersion: string;
  index: string;
  period: ShardPeriod;
  kind: ShardKind;
  countries?: string;
  skipBad: boolean;
  force: boolean;
  partBytes?: number;
  memory?: number;
  onlyPeriods?: string;
  stories: boolean;
}

function positiveNumber(flag: string, integer: boolean): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
      throw new InvalidArgumentError(`${flag} must be a positive ${integer ? 'integer' : 'number'}`);
    return n;
  };
}

/** `news build`: corpus files in, release directory out (see src/release/DESIGN.md). */
export const buildCommand: CliCommand = (program: Command, ctx) => {
  program
    .command('build')
    .description('build a release (shards, metadata stores, manifests) from JSONL / JSONL.gz / Parquet news articles')
    .requiredOption(
      '--input <path...>',
      'input files or folders (.jsonl, .jsonl.gz, .parquet; folders are read recursively)',
    )
    .requiredOption('--out <dir>', 'release directory to create')
    .requiredOption('--index-version <id>', 'release identity, echoed as v2 index_version (e.g. 2024-06-01.1)')
    .option('--index <name>', 'index name', defaultBuildOptions.indexName)
    .addOption(
      new Option('--period <period>', 'one shard per crawl month or year')
        .choices(['month', 'year'])
        .default(defaultBuildOptions.period),
    )
    .addOption(
      new Option(
        '--kind <kind>',
        `index kind: ${indexKinds()
          .map((k) => `${k.name}, ${k.summary}`)
          .join('; ')}`,
      )
        .choices(SHARD_KINDS)
        .default(defaultBuildOptions.kind),
    )
    .option(
      '--countries <csv>',
      'hostname,country,country_source,country_confidence table to attribute publisher countries',
    )
    .option('--skip-bad', 'skip bad records and count them instead of stopping', false)
    .option('--force', 'replace an existing non-empty --out', false)
    .option(
      '--part-bytes <n>',
      'split a period larger than this many text bytes into parts (default: the largest that --memory can sort)',
      positiveNumber('--part-bytes', true),
    )
    .option(
      '--only-periods <spec>',
      'build only a part of the release: these crawl months or years (e.g. 2019-01..2019-06,2020-02 or 2019,2021..2023), for news release assemble',
    )
    .option(
      '--no-stories',
      'skip the story clustering (exact and near-duplicate articles); dedupe requests then get 422',
    )
    .option(
      '--memory <GB>',
      'RAM budget of the build in GB (default: half the machine); decides the part size and how many parts sort at once',
      positiveNumber('--memory', false),
    )
    .action(
      action(ctx, 'build', async (flags: BuildFlags) => {
        const progress = createProgressReporter(ctx.stderr, ctx.logger);
        try {
          const summary = await withInterrupt(ctx, 'build', (signal) =>
            buildRelease({
              inputs: flags.input,
              out: flags.out,
              indexVersion: flags.indexVersion,
              indexName: flags.index,
              period: flags.period,
              kind: flags.kind,
              countries: flags.countries,
              skipBad: flags.skipBad,
              force: flags.force,
              stories: flags.stories,
              signal,
              partBytes: flags.partBytes,
              onlyPeriods: flags.onlyPeriods,
              memoryBytes: flags.memory === undefined ? undefined : Math.floor(flags.memory * 1e9),
              onPlan: (plan) => ctx.logger.info({ plan }, planLine(plan)),
              onProgress: (p) => progress.report(p),
              onSkip: (where) => ctx.logger.warn({ skipped: where }, 'skipped a bad record'),
            }),
          );
          progress.end();
          const mbps = Number(summary.mbPerSecond.toFixed(2));
          if (ctx.stderr.isTTY) {
            ctx.stderr.write(
              `news build: ${summary.documents} documents in ${summary.shards} shards (${summary.years} years), ` +
                `${(summary.textBytes / 1e6).toFixed(1)} MB text, ${(summary.indexBytes / 1e6).toFixed(1)} MB index, ` +
                `${summary.skipped} skipped, ${summary.seconds.toFixed(1)} s, ${mbps} MB/s → ${summary.out}\n`,
            );
          } else {
            ctx.logger.info({ summary }, 'build complete');
          }
          ctx.stdout.write(
            JSON.stringify({
              out: summary.out,
              index_version: summary.indexVersion,
              index: summary.indexName,
              documents: summary.documents,
              shards: summary.shards,
              years: summary.years,
              text_bytes: summary.textBytes,
              index_bytes: summary.indexBytes,
              story_bytes: summary.storyBytes,
              skipped: summary.skipped,
              seconds: Number(summary.seconds.toFixed(2)),
              mb_per_s: mbps,
              ...(summary.partYears ? { part_years: summary.partYears } : {}),
            }) + '\n',
          );
        } finally {
          progress.end();
        }
      }),
    );
};

function planLine(p: IndexPlan): string {
  const gb = (n: number): string => (n / 1e9).toFixed(2);
  return (
    `plan: ${p.parts} shards (${p.splitPeriods} ${p.splitPeriods === 1 ? 'period' : 'periods'} split into parts, largest ${gb(p.largestPartBytes)} GB), ` +
    `up to ${p.maxParallelSorts} sorting at once, peak ≈ ${gb(p.peakSortBytes)} GB of the ${gb(p.memoryBytes)} GB budget, ` +
    `suffix sorter ${p.sorter}${p.sorter === 'sais' ? ' (our SA-IS; apt-get install libdivsufsort-dev && npm run postinstall sorts ~1.4x faster)' : ''}`
  );
}
