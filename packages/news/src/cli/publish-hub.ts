import type { Command } from 'commander';
import { defaultPublishHubOptions, publishHub, PublishHubError } from '../hub/publish/index.ts';
import type { CliCommand } from './context.ts';
import { action, UsageError } from './fail.ts';

interface PublishHubFlags {
  release: string;
  out: string;
  index: string;
  partitionRows: string;
  force: boolean;
}

/** `news publish-hub`: writes the dataset-hub copy of a release; prints one JSON summary line. */
export const publishHubCommand: CliCommand = (program: Command, ctx) => {
  program
    .command('publish-hub')
    .description(
      'write a release in the dataset-hub layout: Parquet partitions per crawl year, shard manifest, release identity',
    )
    .requiredOption('--release <dir>', 'release directory built by news build')
    .requiredOption('--out <dir>', 'output directory (the files to upload to the dataset repository)')
    .option('--index <name>', 'index name', defaultPublishHubOptions.index)
    .option('--partition-rows <n>', 'rows per Parquet partition', String(defaultPublishHubOptions.partitionRows))
    .option('--force', 'replace a non-empty --out', false)
    .action(
      action(ctx, 'publish-hub', async (flags: PublishHubFlags) => {
        const partitionRows = Number(flags.partitionRows);
        if (!Number.isInteger(partitionRows) || partitionRows < 1)
          throw new UsageError(`--partition-rows ${flags.partitionRows} is not a positive integer`);
        try {
          const summary = await publishHub({
            release: flags.release,
            out: flags.out,
            index: flags.index,
            partitionRows,
            force: flags.force,
          });
          ctx.stdout.write(JSON.stringify({ event: 'published', ...summary }) + '\n');
        } catch (e) {
          // A publication problem is a usage problem here: the message names the flag or file to fix.
          if (e instanceof PublishHubError) throw new UsageError(e.message);
          throw e;
        }
      }),
    );
};
