import type { Command } from 'commander';
import { pino, type Logger } from 'pino';
import { ConfigError, parseGatewayConfig, startGateway } from '../gateway/index.ts';
import type { CliCommand } from './context.ts';
import { closeOnSignals, parsePort } from './worker.ts';

/**
 * The gateway writes one log line per request; a synchronous write each would cost more than validating the
 * request. Lines are buffered (4 KiB) and flushed every second and on exit.
 */
function requestLogger(): Logger {
  const destination = pino.destination({ fd: 2, sync: false, minLength: 4096 });
  const log = pino({ name: 'news-gateway', level: process.env['LOG_LEVEL'] ?? 'info' }, destination);
  setInterval(() => log.flush(), 1000).unref();
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      /* not open yet: nothing buffered */
    }
  });
  return log;
}

/**
 * `news gateway`: the public API and pages. Settings come from the environment (see the README's table);
 * `--port` overrides GATEWAY_PORT. Prints one JSON line with its URL.
 */
export const gatewayCommand: CliCommand = (program: Command, ctx) => {
  program
    .command('gateway')
    .description(
      'serve the public HTTP API (v1, v2 health), /api-docs and the legal pages; configured by GATEWAY_* variables',
    )
    .option('--port <n>', 'port, overriding GATEWAY_PORT (0 picks a free one)', parsePort)
    .option('--host <host>', 'address to listen on, overriding GATEWAY_HOST')
    .action(async (flags: { port?: number; host?: string }) => {
      let config;
      try {
        config = parseGatewayConfig(process.env, { port: flags.port, host: flags.host });
      } catch (e) {
        if (!(e instanceof ConfigError)) throw e;
        ctx.stderr.write(`news gateway: ${e.message}\n`);
        process.exitCode = 2;
        return;
      }
      const log = requestLogger();
      const running = await startGateway(config, log);
      log.info({ url: running.url, index_version: config.indexVersion, worker: config.workerUrl }, 'gateway listening');
      ctx.stdout.write(
        JSON.stringify({ event: 'listening', url: running.url, index_version: config.indexVersion }) + '\n',
      );
      closeOnSignals(running.close);
    });
};
