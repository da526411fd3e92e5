import type { Logger } from 'pino';
import type { GatewayConfig } from './config/index.ts';
import { buildGatewayApp } from './app.ts';
import {
  createReleaseBinding,
  createWorkerClient,
  defaultWorkerClientOptions,
  type WorkerClient,
} from './worker-client/index.ts';
import { createClusterClient, defaultClusterOptions } from './cluster/index.ts';
import type { FastifyInstance } from 'fastify';

export { parseGatewayConfig, ConfigError, COMPRESSION_DEFAULTS, type GatewayConfig } from './config/index.ts';
export { buildGatewayApp } from './app.ts';
export type { GatewayContext } from './context.ts';

export interface RunningGateway {
  readonly url: string;
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

/**
 * Starts the public gateway. It does not wait for the worker: health and v2 report the binding as it is,
 * and v1 answers 503 until the worker is reachable.
 * @example const gw = await startGateway(parseGatewayConfig(process.env), log); console.log(gw.url);
 */
export async function startGateway(config: GatewayConfig, log: Logger): Promise<RunningGateway> {
  // One worker serving the whole release keeps the direct client; several, or a topology file, route by shard.
  const routed = config.workers.length > 1 || config.workers.some((w) => w.shards !== null);
  const worker: WorkerClient = routed
    ? createClusterClient(config.workers, config.indexVersion, {
        ...defaultClusterOptions,
        timeoutMs: config.workerTimeoutMs,
        connections: config.workerConnections,
      })
    : createWorkerClient(config.workerUrl, {
        ...defaultWorkerClientOptions,
        timeoutMs: config.workerTimeoutMs,
        connections: config.workerConnections,
      });
  const binding = createReleaseBinding(worker, config.indexVersion);
  const app = buildGatewayApp({ config, worker, binding, log });
  await app.listen({ host: config.host, port: config.port });
  const addr = app.server.address();
  if (addr === null || typeof addr === 'string') throw new Error('gateway has no TCP address');
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${host}:${addr.port}`,
    app,
    close: async () => {
      await app.close();
      await worker.close();
    },
  };
}
