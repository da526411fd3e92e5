export { parseConfig, defaultConfig, ConfigError, DEFAULT_PORT } from './config.ts';
export type { Config } from './config.ts';
