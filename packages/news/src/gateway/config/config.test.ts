import { describe, expect, it } from 'vitest';
import { ADMISSION_DEFAULTS, ConfigError, parseGatewayConfig } from './index.ts';

const BASE = {
  GATEWAY_INDEX_VERSION: 'r1',
  GATEWAY_WORKER_URL: 'http://127.0.0.1:8701',
  GATEWAY_ENVIRONMENT: 'development',
};

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    parseGatewayConfig({ ...BASE, ...env });
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

describe('admission settings', () => {
  it('defaults to 6 expensive calls per client, 2 in flight, and the socket address as the client', () => {
    const config = parseGatewayConfig(BASE);
    expect([config.admission, config.trustProxy]).toEqual([{ ...ADMISSION_DEFAULTS }, []]);
  });

  it('reads GATEWAY_EXPENSIVE_PER_CLIENT, GATEWAY_EXPENSIVE_IN_FLIGHT and GATEWAY_TRUST_PROXY', () => {
    const config = parseGatewayConfig({
      ...BASE,
      GATEWAY_EXPENSIVE_PER_CLIENT: '5',
      GATEWAY_EXPENSIVE_IN_FLIGHT: '3',
      GATEWAY_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1',
    });
    expect([config.admission, config.trustProxy]).toEqual([
      { perClient: 5, inFlight: 3 },
      ['127.0.0.1', '10.0.0.0/8', '::1'],
    ]);
  });

  it('refuses an expensive lane that would take every worker connection', () => {
    expect(problemsOf({ GATEWAY_EXPENSIVE_IN_FLIGHT: '16' })).toEqual([
      expect.stringContaining('below GATEWAY_WORKER_CONNECTIONS (16)'),
    ]);
    expect(problemsOf({ GATEWAY_EXPENSIVE_IN_FLIGHT: '15' })).toEqual([]);
  });

  it('says what to set for a budget that is not a positive integer or a proxy that is not an address', () => {
    expect(problemsOf({ GATEWAY_EXPENSIVE_PER_CLIENT: '0' })).toEqual([
      expect.stringContaining('set GATEWAY_EXPENSIVE_PER_CLIENT to an integer from 1'),
    ]);
    expect(problemsOf({ GATEWAY_TRUST_PROXY: 'proxy.example' })).toEqual([
      expect.stringContaining('set GATEWAY_TRUST_PROXY'),
    ]);
  });
});
