import type { Logger } from 'pino';
import { checkReleaseDigests, type DigestCheckSummary } from '../release/index.ts';
import type { OpenRelease } from '../release/types.ts';
import type { DamageGuard } from './damage-guard.ts';

/** How often a running check logs its progress (a multi-GB release takes minutes). */
const PROGRESS_LOG_MS = 30_000;

export interface BackgroundCheck {
  /** Settles with the summary, or null when the check was stopped or could not run (logged). Never rejects. */
  readonly done: Promise<DigestCheckSummary | null>;
  stop(): void;
}

/**
 * `--verify sizes` opens a release without reading it; this reads every served file once while the worker serves
 * (hashed on a thread of its own, so requests are not held up) and takes each shard whose files do not match the
 * manifest out of service through `guard`. Logged: start, progress, every damaged shard (error), the end.
 */
export function startBackgroundCheck(
  dir: string,
  release: OpenRelease,
  guard: DamageGuard,
  log: Logger,
): BackgroundCheck {
  const abort = new AbortController();
  let lastLog = Date.now();
  log.info({ release: dir }, "background check: verifying every served file's sha256 while serving");
  const done = checkReleaseDigests(dir, release, {
    signal: abort.signal,
    onDamage: (d) => {
      guard.markDamaged(d);
      log.error(
        { index: d.index, shard_id: d.shardId, file: d.file, reason: d.reason },
        `shard ${d.shardId} is damaged (${d.file}: ${d.reason}); out of service until the release is restored and the worker restarted`,
      );
    },
    onProgress: (p) => {
      if (Date.now() - lastLog < PROGRESS_LOG_MS) return;
      lastLog = Date.now();
      log.info(
        { progress: p },
        `background check: ${(p.bytesDone / 1e6).toFixed(0)}/${(p.bytesTotal / 1e6).toFixed(0)} MB verified`,
      );
    },
  }).then(
    (summary) => {
      log.info(
        { summary, mb_per_s: Number((summary.bytesDone / 1e6 / Math.max(summary.seconds, 1e-3)).toFixed(1)) },
        `background check done: ${summary.filesDone} files, ${(summary.bytesDone / 1e6).toFixed(1)} MB in ${summary.seconds.toFixed(1)} s, ${summary.damagedShards} damaged shards`,
      );
      return summary;
    },
    (e: unknown) => {
      if (abort.signal.aborted) return null;
      log.error(
        { err: e },
        'background check failed; the shards stay in service unchecked (restart the worker with --verify full to check them before serving)',
      );
      return null;
    },
  );
  return { done, stop: () => abort.abort(new Error('worker closing')) };
}
