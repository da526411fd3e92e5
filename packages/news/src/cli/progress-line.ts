import type { Logger } from 'pino';
import type { BuildProgress } from '../release/index.ts';

const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);

/** How one command's progress reads: its phase and elapsed time, the terminal line, and the log record off a terminal. */
export interface ProgressView<P> {
  phase(p: P): string;
  elapsedMs(p: P): number;
  line(p: P): string;
  log(p: P): { readonly msg: string; readonly record: object };
}

export interface ProgressReporter<P> {
  report(p: P): void;
  end(): void;
}

/** A terminal line is redrawn at most this often: some commands report every MiB they read. */
const REDRAW_MS = 100;

/**
 * Progress on stderr: one updating line on a terminal, one JSON log line per update otherwise (CI logs and pipes get
 * parseable records instead of carriage returns): every phase change, else at most one line every 2 s.
 */
export function createPhaseReporter<P>(
  stderr: NodeJS.WriteStream,
  logger: Logger,
  view: ProgressView<P>,
): ProgressReporter<P> {
  const tty = stderr.isTTY === true;
  let lastPhase = '';
  let lastAt = -Infinity;
  return {
    report(p) {
      const phase = view.phase(p);
      const at = view.elapsedMs(p);
      if (phase === lastPhase && at - lastAt < (tty ? REDRAW_MS : 2000)) return;
      lastPhase = phase;
      lastAt = at;
      if (!tty) {
        const { msg, record } = view.log(p);
        logger.info(record, msg);
        return;
      }
      const line = view.line(p);
      // Cut to the terminal width: a wrapped line could not be redrawn in place.
      const width = stderr.columns > 20 ? stderr.columns - 1 : line.length;
      stderr.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    },
    end() {
      if (tty && lastPhase) stderr.write('\n');
      lastPhase = '';
      lastAt = -Infinity;
    },
  };
}

function timeLeft(p: BuildProgress): string {
  const fraction =
    p.phase === 'read'
      ? p.inputBytes / Math.max(p.inputTotalBytes, 1)
      : p.phase === 'index'
        ? p.indexedBytes / Math.max(p.indexTotalBytes, 1)
        : undefined;
  if (fraction === undefined || fraction <= 0.01) return '';
  // Per phase: the read and index phases run at different speeds, so one overall rate would mislead.
  const phaseMs = p.elapsedMs * (1 / fraction - 1);
  return ` · ~${Math.ceil(phaseMs / 1000)} s left in ${p.phase}`;
}

/** Build progress (`news build`, `news demo`). */
export function createProgressReporter(stderr: NodeJS.WriteStream, logger: Logger): ProgressReporter<BuildProgress> {
  return createPhaseReporter<BuildProgress>(stderr, logger, {
    phase: (p) => p.phase,
    elapsedMs: (p) => p.elapsedMs,
    log: (p) => ({
      msg: `build ${p.phase}`,
      record: { progress: { ...p, timeLeft: timeLeft(p).replace(' · ', '') || undefined } },
    }),
    line: (p) =>
      `news build: ${p.phase} · ${p.records} records${p.skipped ? ` (${p.skipped} skipped)` : ''} · ` +
      `${mb(p.inputBytes)}/${mb(p.inputTotalBytes)} MB input · ${mb(p.textBytes)} MB text · ` +
      // While reading, parts are indexed as they fill up; their total is known only once the read ends.
      (p.phase === 'read'
        ? `indexed ${mb(p.indexedBytes)} MB (${p.shardsDone} parts) so far`
        : `indexed ${mb(p.indexedBytes)}/${mb(p.indexTotalBytes)} MB (${p.shardsDone}/${p.shardsTotal} shards)`) +
      `${timeLeft(p)} · ${(p.elapsedMs / 1000).toFixed(0)} s`,
  });
}
