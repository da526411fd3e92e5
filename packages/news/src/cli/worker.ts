import { InvalidArgumentError, Option, type Command } from 'commander';
import { openRelease } from '../release/index.ts';
import { parseShardSpec, selectShardIds, type ShardSpec } from '../protocol/index.ts';
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
  shards?: string;
}

export function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError('a port is an integer from 0 to 65535 (0 picks a free one)');
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
    .requiredOption(
      '--index-version <id>',
      'the release identity the gateway is configured with (GATEWAY_INDEX_VERSION)',
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0 picks a free one)', parsePort, 8701)
    .addOption(
      new Option('--mode <mode>', 'shards in memory or read from disk per probe')
        .choices(['memory', 'disk'])
        .default('memory'),
    )
    .option(
      '--cache-entries <n>',
      'count/find results kept in an LRU cache (0 turns it off)',
      parseCount,
      defaultRpcHandlerOptions.cacheEntries,
    )
    .option(
      '--shards <spec>',
      'serve only these shards: ids and ranges, e.g. 2019-01..2019-06,2020-02.p001 (default: all)',
    )
    .addOption(
      new Option(
        '--verify <level>',
        "full: check every file's sha256 before listening (reads the whole release: ~10 s per GB here); " +
          'sizes: before listening check only that every file exists with its size (catches truncated or replaced files, not changed bytes), ' +
          'then check every sha256 in the background while serving (~9 s per GB here; until then a shard answers from whatever its bytes are) ' +
          'and take a damaged shard out of service (its queries answer 503 shards_unavailable, health 503 names it)',
      )
        .choices(['sizes', 'full'])
        .default('full'),
    )
    .action(
      action(ctx, 'worker', async (flags: WorkerFlags) => {
        // A spec that does not parse, or names a shard the release lacks, is a ShardSpecError: one line, exit 1,
        // before any shard is read.
        const spec: ShardSpec | undefined = flags.shards === undefined ? undefined : parseShardSpec(flags.shards);
        const selectShards =
          spec === undefined ? undefined : (_index: string, ids: readonly string[]) => selectShardIds(spec, ids);
        const release = await openRelease(flags.release, {
          mode: flags.mode,
          expectedIndexVersion: flags.indexVersion,
          verify: flags.verify,
          selectShards,
        });
        const running = await startWorker(
          release,
          {
            host: flags.host,
            port: flags.port,
            cacheEntries: flags.cacheEntries,
            shardSpec: spec?.text ?? null,
            backgroundCheck: flags.verify === 'sizes' ? flags.release : null,
          },
          ctx.logger,
        );
        const served = [...release.indexes.values()].flatMap((i) => i.shards.map((s) => s.shardId));
        const shards = served.length;
        ctx.logger.info({ url: running.url, index_version: release.indexVersion, shards, served }, 'worker listening');
        ctx.stdout.write(
          JSON.stringify({
            event: 'listening',
            url: running.url,
            index_version: release.indexVersion,
            shards,
            served,
          }) + '\n',
        );
        closeOnSignals(running.close);
      }),
    );
};
