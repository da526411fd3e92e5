export {
  createClusterClient,
  defaultClusterOptions,
  type ClusterClient,
  type ClusterOptions,
  type ReplicaReport,
} from './cluster-client.ts';
export { shardsUnavailable } from './replica-set.ts';
export { TOPOLOGY_FORMAT } from '../config/index.ts';
