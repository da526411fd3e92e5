export { parseConfig, defaultConfig, ConfigError, DEFAULT_PORT, storeUrl } from './config.ts';
export type { Config } from './config.ts';
