export { parseGatewayConfig, ConfigError, COMPRESSION_DEFAULTS, ADMISSION_DEFAULTS } from './config.ts';
export type {
  GatewayConfig,
  OperatorDetails,
  HubSettings,
  Environment,
  ConfigOverrides,
  CompressionSettings,
} from './config.ts';
export { TOPOLOGY_FORMAT, type WorkerEndpoint } from './workers.ts';
