import { CorpusError } from '../corpus/index.ts';
import { CountryTableError, MetadataStoreError } from '../metadata/index.ts';
import { BuildError, ReleaseVerificationError } from '../release/index.ts';
import { ShardFormatError, ShardTooLargeError } from '../shard/index.ts';
import { ShardSpecError } from '../protocol/index.ts';
import type { CliContext } from './context.ts';

/** An error of the command line itself (bad flags, unreadable query file); the message says what to do. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

const KNOWN = [
  UsageError,
  CorpusError,
  CountryTableError,
  MetadataStoreError,
  BuildError,
  ReleaseVerificationError,
  ShardFormatError,
  ShardTooLargeError,
  ShardSpecError,
];

/**
 * Wraps a command action: a known error prints its one-line message and exits 1 (2 for usage errors);
 * an unknown one is logged with its stack and exits 70 (EX_SOFTWARE), since it is a bug to report.
 */
export function action<A extends unknown[]>(
  ctx: CliContext,
  name: string,
  run: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await run(...args);
    } catch (e) {
      if (KNOWN.some((k) => e instanceof k)) {
        const code = (e as { code?: unknown }).code;
        // The one-line message is for the user; the log record keeps the code for whoever collects logs.
        ctx.logger.debug({ code: typeof code === 'string' ? code : undefined }, (e as Error).message);
        ctx.stderr.write(`news ${name}: ${(e as Error).message}\n`);
        process.exitCode = e instanceof UsageError ? 2 : code === 'aborted' ? 130 : 1;
        return;
      }
      ctx.logger.error({ err: e }, `news ${name} failed unexpectedly`);
      ctx.stderr.write(
        `news ${name}: unexpected error (${(e as Error).message ?? String(e)}); please report it with the log above\n`,
      );
      process.exitCode = 70;
    }
  };
}
