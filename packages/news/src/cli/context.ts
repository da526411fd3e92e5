import type { Command } from 'commander';
import { pino, type Logger } from 'pino';

/** What every command gets from main: passed in, never imported, so tests and other entry points can swap them. */
export interface CliContext {
  readonly logger: Logger;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WriteStream;
}

/** A command registers itself on the program; main.ts lists them, one line each. */
export type CliCommand = (program: Command, ctx: CliContext) => void;

/** Structured logs go to stderr, so stdout stays for results (JSON lines) that scripts read. */
export function createCliContext(): CliContext {
  const logger = pino(
    { name: 'news', level: process.env['LOG_LEVEL'] ?? 'info' },
    pino.destination({ fd: 2, sync: true }),
  );
  return { logger, stdout: process.stdout, stderr: process.stderr };
}
