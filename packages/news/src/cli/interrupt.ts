import type { CliContext } from './context.ts';

/**
 * Runs `work` with an AbortSignal tied to SIGINT/SIGTERM. First signal: `what` stops cleanly (its partial folder is
 * removed). A second one ends the process at once.
 */
export async function withInterrupt<T>(
  ctx: CliContext,
  what: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (): void => {
    interrupts++;
    if (interrupts > 1) process.exit(130);
    ctx.logger.warn(`interrupted: stopping the ${what} and removing the partial release`);
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
