import { InvalidArgumentError, Option, type Command } from 'commander';
import { openRelease } from '../release/index.ts';
import { defaultRpcHandlerOptions, startWorker } from '../worker/index.ts';
import type { CliCommand } from './context.ts';
import { action } from './fail.ts';

interface WorkerFlags {
  release: string;
  indexVersion: string;
  host: string;
  port: number;
  mode: 'memory' | 'disk';
  verify: 'sizes' | 'full';
  cacheEntries: number;
}

export function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is an integer from 0 to 65535 (0 picks a free one)');
  return n;
}

function parseCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('a non-negative integer');
  return n;
}

/** Stops a server on SIGINT/SIGTERM so keep-alive sockets close and the process exits 0. */
export function closeOnSignals(close: () => Promise<void>): void {
  const stop = (): void => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    void close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/**
 * `news worker`: verifies the release (both manifests name `--index-version`, same shard set, versions and
 * checksums) BEFORE it listens; any difference exits 1 with one line. Prints one JSON line with its URL.
 */
export const workerCommand: CliCommand = (program: Command, ctx) => {
  program
    .command('worker')
    .description('serve a release to the gateway over the internal protocol (loopback HTTP)')
    .requiredOption('--release <dir>', 'release directory built by news build')
    .requiredOption('--index-version <id>', 'the release identity the gateway is configured with (GATEWAY_INDEX_VERSION)')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0 picks a free one)', parsePort, 8701)
    .addOption(new Option('--mode <mode>', 'shards in memory or read from disk per probe').choices(['memory', 'disk']).default('memory'))
    .option('--cache-entries <n>', 'count/find results kept in an LRU cache (0 turns it off)', parseCount, defaultRpcHandlerOptions.cacheEntries)
    .addOption(new Option('--verify <level>', 'check file sizes, or also every sha256 checksum').choices(['sizes', 'full']).default('full'))
    .action(action(ctx, 'worker', async (flags: WorkerFlags) => {
      const release = await openRelease(flags.release, { mode: flags.mode, expectedIndexVersion: flags.indexVersion, verify: flags.verify });
      const running = await startWorker(release, { host: flags.host, port: flags.port, cacheEntries: flags.cacheEntries }, ctx.logger);
      const shards = [...release.indexes.values()].reduce((n, i) => n + i.shards.length, 0);
      ctx.logger.info({ url: running.url, index_version: release.indexVersion, shards }, 'worker listening');
      ctx.stdout.write(JSON.stringify({ event: 'listening', url: running.url, index_version: release.indexVersion, shards }) + '\n');
      closeOnSignals(running.close);
    }));
};
