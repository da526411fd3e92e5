import type { Command } from 'commander';
import { defaultSyntheticCorpusOptions, writeSyntheticCorpus } from '../corpus/index.ts';
import type { CliCommand } from './context.ts';
import { action, UsageError } from './fail.ts';

/** `news demo-corpus`: writes the repository's synthetic corpus (made-up words, labelled SYNTHETIC). */
export const demoCorpusCommand: CliCommand = (program: Command, ctx) => {
  program
    .command('demo-corpus')
    .description('write a deterministic synthetic news corpus (gzipped JSONL) for demos, tests and benchmarks')
    .requiredOption('--out <file>', 'output file, e.g. demo.jsonl.gz')
    .option('--bytes <n>', 'article text bytes to generate', String(defaultSyntheticCorpusOptions.textBytes))
    .option('--seed <n>', 'random seed', String(defaultSyntheticCorpusOptions.seed))
    .option('--month <YYYY-MM>', 'put every article in this one crawl month (default: spread over 6 years)')
    .action(action(ctx, 'demo-corpus', async (flags: { out: string; bytes: string; seed: string; month?: string }) => {
      const textBytes = Number(flags.bytes);
      const seed = Number(flags.seed);
      if (!Number.isSafeInteger(textBytes) || textBytes <= 0) throw new UsageError(`--bytes ${flags.bytes} must be a positive integer`);
      if (!Number.isSafeInteger(seed)) throw new UsageError(`--seed ${flags.seed} must be an integer`);
      if (!flags.out.endsWith('.jsonl.gz')) throw new UsageError(`--out ${flags.out} must end in .jsonl.gz`);
      const month = flags.month === undefined ? undefined : /^(\d{4})-(0[1-9]|1[0-2])$/.exec(flags.month);
      if (month === null) throw new UsageError(`--month ${flags.month} must be a crawl month like 2024-03`);
      const started = Date.now();
      const result = await writeSyntheticCorpus(flags.out, {
        ...defaultSyntheticCorpusOptions, textBytes, seed,
        ...(month ? { firstYear: Number(month[1]), month: Number(month[2]) } : {}),
      });
      ctx.logger.info({ ...result, out: flags.out, seconds: (Date.now() - started) / 1000 }, 'synthetic corpus written');
      ctx.stdout.write(JSON.stringify({ out: flags.out, articles: result.articles, text_bytes: result.textBytes }) + '\n');
    }));
};
