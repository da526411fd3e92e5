export { parseGatewayConfig, ConfigError } from './config.ts';
export type { GatewayConfig, OperatorDetails, HubSettings, Environment, ConfigOverrides } from './config.ts';
