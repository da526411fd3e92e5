import type { Logger } from 'pino';
import type { BuildProgress } from '../release/index.ts';

const mb = (bytes: number): string => (bytes / 1e6).toFixed(1);

function timeLeft(p: BuildProgress): string {
  const fraction = p.phase === 'read' ? p.inputBytes / Math.max(p.inputTotalBytes, 1)
    : p.phase === 'index' ? p.indexedBytes / Math.max(p.indexTotalBytes, 1) : undefined;
  if (fraction === undefined || fraction <= 0.01) return '';
  // Per phase: the read and index phases run at different speeds, so one overall rate would mislead.
  const phaseMs = p.elapsedMs * (1 / fraction - 1);
  return ` · ~${Math.ceil(phaseMs / 1000)} s left in ${p.phase}`;
}

/**
 * Build progress on stderr: one updating line on a terminal, one JSON log line per update otherwise
 * (CI logs and pipes get parseable records instead of carriage returns).
 */
export function createProgressReporter(stderr: NodeJS.WriteStream, logger: Logger): { report(p: BuildProgress): void; end(): void } {
  const tty = stderr.isTTY === true;
  let lastPhase = '';
  let lastAt = 0;
  return {
    report(p) {
      if (!tty) {
        // Off a terminal: every phase change, otherwise at most one line every 2 s.
        if (p.phase === lastPhase && p.elapsedMs - lastAt < 2000) return;
        lastPhase = p.phase;
        lastAt = p.elapsedMs;
        logger.info({ progress: { ...p, timeLeft: timeLeft(p).replace(' · ', '') || undefined } }, `build ${p.phase}`);
        return;
      }
      const line = `news build: ${p.phase} · ${p.records} records${p.skipped ? ` (${p.skipped} skipped)` : ''} · ` +
        `${mb(p.inputBytes)}/${mb(p.inputTotalBytes)} MB input · ${mb(p.textBytes)} MB text · ` +
        // While reading, parts are indexed as they fill up; their total is known only once the read ends.
        (p.phase === 'read' ? `indexed ${mb(p.indexedBytes)} MB (${p.shardsDone} parts) so far`
          : `indexed ${mb(p.indexedBytes)}/${mb(p.indexTotalBytes)} MB (${p.shardsDone}/${p.shardsTotal} shards)`) +
        `${timeLeft(p)} · ${(p.elapsedMs / 1000).toFixed(0)} s`;
      // Cut to the terminal width: a wrapped line could not be redrawn in place.
      const width = stderr.columns > 20 ? stderr.columns - 1 : line.length;
      stderr.write(`\r\x1b[2K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
      lastPhase = p.phase;
    },
    end() {
      if (tty && lastPhase) stderr.write('\n');
      lastPhase = '';
    },
  };
}
