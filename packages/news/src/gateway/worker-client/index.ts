export { createWorkerClient, defaultWorkerClientOptions } from './worker-client.ts';
export type { WorkerClient, WorkerClientOptions, Outcome } from './worker-client.ts';
export { createReleaseBinding } from './release-binding.ts';
export type { ReleaseBinding, BindingState } from './release-binding.ts';
