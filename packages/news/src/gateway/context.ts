import type { Logger } from 'pino';
import type { GatewayConfig } from './config/index.ts';
import type { ReleaseBinding, WorkerClient } from './worker-client/index.ts';

/** What route modules receive: settings, the worker, the release binding and a logger — passed in, never imported. */
export interface GatewayContext {
  readonly config: GatewayConfig;
  readonly worker: WorkerClient;
  readonly binding: ReleaseBinding;
  readonly log: Logger;
}
