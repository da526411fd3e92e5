import type { Command } from 'commander';
import { assembleRelease, type AssembleProgress } from '../release/index.ts';
import type { CliCommand, CliContext } from './context.ts';
import { action } from './fail.ts';
import { withInterrupt } from './interrupt.ts';
import { createPhaseReporter, type ProgressReporter } from './progress-line.ts';

interface AssembleFlags {
  out: string;
  indexVersion: string;
  force: boolean;
}

/** `news release assemble`: parts built by `news build --only-periods` in, one release out (src/release/DESIGN.md). */
export const releaseCommand: CliCommand = (program: Command, ctx) => {
  const release = program.command('release').description('work on built releases');
  release
    .command('assemble')
    .description(
      "check that parts built with news build --only-periods agree, verify every file's sha256 (reads each part once), and link them into one release (no shard data copied on one file system); " +
        'a part whose manifests name paths outside it, holds symbolic links, or has a file that does not match its checksum is refused (exit 1)',
    )
    .argument('<part_dir...>', 'folders written by news build --only-periods … --out PART_DIR')
    .requiredOption('--out <dir>', 'release directory to create')
    .requiredOption('--index-version <id>', 'the release identity the parts were built with')
    .option('--force', 'replace an existing non-empty --out', false)
    .action(
      action(ctx, 'release assemble', async (parts: string[], flags: AssembleFlags) => {
        const progress = createAssembleReporter(ctx);
        const summary = await withInterrupt(ctx, 'assembly', (signal) =>
          assembleRelease({
            parts,
            out: flags.out,
            indexVersion: flags.indexVersion,
            force: flags.force,
            signal,
            onProgress: (p) => progress.report(p),
            onNotice: (message) => ctx.logger.warn(message),
          }),
        ).finally(() => progress.end());
        ctx.logger.info({ summary }, 'assemble complete');
        ctx.stdout.write(
          JSON.stringify({
            out: summary.out,
            index_version: summary.indexVersion,
            parts: summary.parts,
            shards: summary.shards,
            years: summary.years,
            documents: summary.documents,
            files: summary.files,
            bytes: summary.bytes,
            copied_bytes: summary.copiedBytes,
            seconds: Number(summary.seconds.toFixed(3)),
          }) + '\n',
        );
      }),
    );
};

/**
 * The build's progress line (progress-line.ts): one line redrawn on a terminal, else a log line per phase change and
 * at most one every 2 s, with the verify rate and the time left (parts are GBs: hashing them is most of the run).
 */
function createAssembleReporter(ctx: CliContext): ProgressReporter<AssembleProgress> {
  const started = Date.now();
  let placeStarted = 0;
  const rate = (p: AssembleProgress): number =>
    p.bytesVerified / Math.max((Date.now() - (placeStarted || Date.now())) / 1000, 1e-3);
  const left = (p: AssembleProgress): string =>
    p.phase === 'place' && p.bytesVerified > 0
      ? `, ~${Math.ceil((p.bytesTotal - p.bytesVerified) / rate(p))} s left`
      : '';
  const text = (p: AssembleProgress): string =>
    `${p.filesDone}/${p.filesTotal} files, ${mb(p.bytesDone)}/${mb(p.bytesTotal)} MB placed, ` +
    `${mb(p.bytesVerified)} MB verified (${mb(rate(p))} MB/s${left(p)}), ${mb(p.copiedBytes)} MB copied`;
  return createPhaseReporter<AssembleProgress>(ctx.stderr, ctx.logger, {
    phase: (p) => {
      if (p.phase === 'place' && placeStarted === 0) placeStarted = Date.now();
      return p.phase;
    },
    elapsedMs: () => Date.now() - started,
    log: (p) => ({ msg: `assemble ${p.phase}: ${text(p)}`, record: { progress: p } }),
    line: (p) => `news release assemble: ${p.phase} · ${text(p)}`,
  });
}

const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);
