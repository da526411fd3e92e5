import type { Command } from 'commander';
import {
  defaultSyndicationOptions,
  defaultSyntheticCorpusOptions,
  writeSyndicatedCorpus,
  writeSyntheticCorpus,
} from '../corpus/index.ts';
import type { CliCommand } from './context.ts';
import { action, UsageError } from './fail.ts';

interface DemoCorpusFlags {
  out: string;
  bytes: string;
  seed: string;
  month?: string;
  copies?: string;
  copyEdits: string;
  truth?: string;
}

/** `news demo-corpus`: writes the repository's synthetic corpus (made-up words, labelled SYNTHETIC). */
export const demoCorpusCommand: CliCommand = (program: Command, ctx) => {
  program
    .command('demo-corpus')
    .description('write a deterministic synthetic news corpus (gzipped JSONL) for demos, tests and benchmarks')
    .requiredOption('--out <file>', 'output file, e.g. demo.jsonl.gz')
    .option('--bytes <n>', 'article text bytes to generate', String(defaultSyntheticCorpusOptions.textBytes))
    .option('--seed <n>', 'random seed', String(defaultSyntheticCorpusOptions.seed))
    .option('--month <YYYY-MM>', 'put every article in this one crawl month (default: spread over 6 years)')
    .option(
      '--copies <share>',
      'plant syndicated copies: this share (0–1) of articles reappears 1–3 times on other sites and dates',
    )
    .option(
      '--copy-edits <share>',
      "share (0–1) of each copy's words replaced",
      String(defaultSyndicationOptions.editShare),
    )
    .option(
      '--truth <file>',
      'with --copies: where to write which article is a copy of which (JSONL; default <out>.copies.jsonl)',
    )
    .action(
      action(ctx, 'demo-corpus', async (flags: DemoCorpusFlags) => {
        const textBytes = Number(flags.bytes);
        const seed = Number(flags.seed);
        if (!Number.isSafeInteger(textBytes) || textBytes <= 0)
          throw new UsageError(`--bytes ${flags.bytes} must be a positive integer`);
        if (!Number.isSafeInteger(seed)) throw new UsageError(`--seed ${flags.seed} must be an integer`);
        if (!flags.out.endsWith('.jsonl.gz')) throw new UsageError(`--out ${flags.out} must end in .jsonl.gz`);
        const month = flags.month === undefined ? undefined : /^(\d{4})-(0[1-9]|1[0-2])$/.exec(flags.month);
        if (month === null) throw new UsageError(`--month ${flags.month} must be a crawl month like 2024-03`);
        const copies = flags.copies === undefined ? undefined : shareFlag('--copies', flags.copies);
        const editShare = shareFlag('--copy-edits', flags.copyEdits);
        if (copies === undefined && flags.truth !== undefined) throw new UsageError('--truth needs --copies');
        const started = Date.now();
        const options = {
          ...defaultSyntheticCorpusOptions,
          textBytes,
          seed,
          ...(month ? { firstYear: Number(month[1]), month: Number(month[2]) } : {}),
        };
        const truth = flags.truth ?? `${flags.out.slice(0, -'.jsonl.gz'.length)}.copies.jsonl`;
        const result =
          copies === undefined
            ? await writeSyntheticCorpus(flags.out, options)
            : await writeSyndicatedCorpus(flags.out, truth, options, {
                ...defaultSyndicationOptions,
                share: copies,
                editShare,
              });
        ctx.logger.info(
          { ...result, out: flags.out, seconds: (Date.now() - started) / 1000 },
          'synthetic corpus written',
        );
        const planted = 'copies' in result ? { copies: result.copies, truth } : {};
        ctx.stdout.write(
          JSON.stringify({ out: flags.out, articles: result.articles, text_bytes: result.textBytes, ...planted }) +
            '\n',
        );
      }),
    );
};

function shareFlag(name: string, value: string): number {
  const share = Number(value);
  if (value.trim() === '' || !Number.isFinite(share) || share < 0 || share > 1)
    throw new UsageError(`${name} ${value} must be a share between 0 and 1`);
  return share;
}
