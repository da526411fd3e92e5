import type { Command } from 'commander';
import { assembleRelease, type AssembleProgress } from '../release/index.ts';
import type { CliCommand, CliContext } from './context.ts';
import { action } from './fail.ts';
import { withInterrupt } from './interrupt.ts';

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
    .description('check that parts built with news build --only-periods agree, verify every file\'s sha256 (reads each part once), and link them into one release (no shard data copied on one file system); ' +
      'a part whose manifests name paths outside it, holds symbolic links, or has a file that does not match its checksum is refused (exit 1)')
    .argument('<part_dir...>', 'folders written by news build --only-periods … --out PART_DIR')
    .requiredOption('--out <dir>', 'release directory to create')
    .requiredOption('--index-version <id>', 'the release identity the parts were built with')
    .option('--force', 'replace an existing non-empty --out', false)
    .action(action(ctx, 'release assemble', async (parts: string[], flags: AssembleFlags) => {
      const progress = createAssembleReporter(ctx);
      const summary = await withInterrupt(ctx, 'assembly', (signal) => assembleRelease({
        parts, out: flags.out, indexVersion: flags.indexVersion, force: flags.force, signal,
        onProgress: progress, onNotice: (message) => ctx.logger.warn(message),
      }));
      ctx.logger.info({ summary }, 'assemble complete');
      ctx.stdout.write(JSON.stringify({
        out: summary.out, index_version: summary.indexVersion, parts: summary.parts, shards: summary.shards, years: summary.years,
        documents: summary.documents, files: summary.files, bytes: summary.bytes, copied_bytes: summary.copiedBytes, seconds: Number(summary.seconds.toFixed(3)),
      }) + '\n');
    }));
};

/**
 * Like the build's progress: a log line per phase change and at most one every 2 s while files are verified and
 * placed, with the verify rate and the time left (parts are GBs: hashing them is most of the run).
 */
function createAssembleReporter(ctx: CliContext): (p: AssembleProgress) => void {
  let lastPhase = '';
  let lastAt = 0;
  let placeStarted = 0;
  return (p) => {
    const now = Date.now();
    if (p.phase === 'place' && placeStarted === 0) placeStarted = now;
    if (p.phase === lastPhase && now - lastAt < 2000) return;
    lastPhase = p.phase;
    lastAt = now;
    const rate = p.bytesVerified / Math.max((now - (placeStarted || now)) / 1000, 1e-3);
    const left = p.phase === 'place' && p.bytesVerified > 0 ? `, ~${Math.ceil((p.bytesTotal - p.bytesVerified) / rate)} s left` : '';
    ctx.logger.info({ progress: p }, `assemble ${p.phase}: ${p.filesDone}/${p.filesTotal} files, ` +
      `${mb(p.bytesDone)}/${mb(p.bytesTotal)} MB placed, ${mb(p.bytesVerified)} MB verified (${mb(rate)} MB/s${left}), ${mb(p.copiedBytes)} MB copied`);
  };
}

const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);
