/**
 * Gateway settings, parsed once at start-up from the environment (and `--port`) into a frozen object.
 * A missing or bad value stops start-up with one message listing every variable to fix.
 */
import { parseWorkers, type WorkerEndpoint } from './workers.ts';

export type Environment = 'production' | 'development';

export interface OperatorDetails {
  readonly name: string;
  /** Postal address, one entry per line. */
  readonly address: readonly string[];
  readonly email: string;
  readonly phone: string | null;
  readonly representative: string | null;
  readonly register: string | null;
  readonly vatId: string | null;
  readonly contentResponsible: string | null;
  /** How long request logs are kept, as the operator states it (free text). */
  readonly logRetention: string | null;
}

export interface HubSettings {
  /** `owner/name` of the dataset repository, or null when no hub copy is configured. */
  readonly repo: string | null;
  /** Pinned corpus revision (binding rule 5); null means "resolve the latest commit once". */
  readonly revision: string | null;
  readonly endpoint: string;
}

export interface GatewayConfig {
  readonly indexVersion: string;
  /** The first (or only) worker; with one worker serving the whole release the gateway uses it directly. */
  readonly workerUrl: string;
  /** Every worker replica (GATEWAY_TOPOLOGY or GATEWAY_WORKER_URL); more than one, or a topology file, routes by shard. */
  readonly workers: readonly WorkerEndpoint[];
  readonly host: string;
  readonly port: number;
  readonly workerTimeoutMs: number;
  readonly workerConnections: number;
  readonly environment: Environment;
  readonly hub: HubSettings;
  /** Null only in development; production refuses to start without it (the legal pages need it). */
  readonly operator: OperatorDetails | null;
  /** Response compression (`GATEWAY_COMPRESSION`, on by default; off behind a proxy that compresses). */
  readonly compression: CompressionSettings;
  /** Expensive calls per client and in flight (GATEWAY_EXPENSIVE_PER_CLIENT, GATEWAY_EXPENSIVE_IN_FLIGHT). */
  readonly admission: { readonly perClient: number; readonly inFlight: number };
  /** Proxies (addresses or CIDRs) whose X-Forwarded-For names the client (GATEWAY_TRUST_PROXY); empty: the socket address. */
  readonly trustProxy: readonly string[];
}

/** Admission defaults, measured by `npm run bench:fairness` (BENCHMARKS.md "News fairness between clients"). */
// 6 per client: a browser keeps at most 6 connections per host, so one person's tab (the page fires timeline,
// estimate and documents together) is never refused; a script firing more in parallel is.
export const ADMISSION_DEFAULTS = { perClient: 6, inFlight: 2 } as const;

/**
 * Defaults measured by `npm run bench:v2` (BENCHMARKS.md, "HTTP compression"): brotli quality 4 shrinks a documents
 * page about as much as gzip 6 at a fraction of brotli's default quality-11 cost; answers under 1 KiB (counts,
 * errors) stay plain because the headers would eat the gain.
 */
export const COMPRESSION_DEFAULTS = { thresholdBytes: 1024, brotliQuality: 4, gzipLevel: 6 } as const;

export interface CompressionSettings {
  readonly enabled: boolean;
  readonly thresholdBytes: number;
  readonly brotliQuality: number;
  readonly gzipLevel: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(`gateway configuration is incomplete:\n  - ${problems.join('\n  - ')}`);
  }
}

export interface ConfigOverrides {
  readonly port?: number | undefined;
  readonly host?: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

const HUB_REPO = /^[A-Za-z0-9][\w.-]*\/[\w.-]+$/;

/** Parses the gateway settings. @example parseGatewayConfig(process.env, { port: 8080 }) */
export function parseGatewayConfig(env: Env, overrides: ConfigOverrides = {}): GatewayConfig {
  const problems: string[] = [];
  const get = (key: string): string | undefined => {
    const v = env[key]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  const int = (key: string, fallback: number, min: number, max: number): number => {
    const raw = get(key);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`set ${key} to an integer from ${min} to ${max} (got ${JSON.stringify(raw)})`);
      return fallback;
    }
    return n;
  };

  const indexVersion = get('GATEWAY_INDEX_VERSION');
  if (indexVersion === undefined) {
    problems.push('set GATEWAY_INDEX_VERSION to the release identity the worker serves (its --index-version)');
  }

  const workers = parseWorkers(get, problems);

  const envName = get('GATEWAY_ENVIRONMENT') ?? 'production';
  let environment: Environment = 'production';
  if (envName === 'production' || envName === 'development') environment = envName;
  else problems.push(`set GATEWAY_ENVIRONMENT to production or development (got ${JSON.stringify(envName)})`);

  const port = overrides.port ?? int('GATEWAY_PORT', 8080, 0, 65535);
  const host = overrides.host ?? get('GATEWAY_HOST') ?? '127.0.0.1';
  const workerTimeoutMs = int('GATEWAY_WORKER_TIMEOUT_MS', 2000, 50, 60_000);
  const workerConnections = int('GATEWAY_WORKER_CONNECTIONS', 16, 1, 1024);
  const perClient = int('GATEWAY_EXPENSIVE_PER_CLIENT', ADMISSION_DEFAULTS.perClient, 1, 1000);
  const inFlight = int('GATEWAY_EXPENSIVE_IN_FLIGHT', ADMISSION_DEFAULTS.inFlight, 1, 1023);
  // Cheap calls keep at least one connection of their own: expensive ones never hold all of a worker's.
  if (inFlight >= workerConnections) {
    problems.push(
      `set GATEWAY_EXPENSIVE_IN_FLIGHT (${inFlight}) below GATEWAY_WORKER_CONNECTIONS (${workerConnections}), so cheap calls keep connections of their own`,
    );
  }
  const trustProxy = (get('GATEWAY_TRUST_PROXY') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  for (const p of trustProxy) {
    if (!/^[0-9a-fA-F.:]+(\/[0-9]{1,3})?$/.test(p))
      problems.push(
        `set GATEWAY_TRUST_PROXY to comma-separated proxy addresses or CIDRs, e.g. 127.0.0.1,10.0.0.0/8 (got ${JSON.stringify(p)})`,
      );
  }

  const repo = get('GATEWAY_HF_REPO') ?? null;
  if (repo !== null && !HUB_REPO.test(repo))
    problems.push(`set GATEWAY_HF_REPO to owner/name (got ${JSON.stringify(repo)})`);
  const endpointRaw = get('GATEWAY_HF_ENDPOINT') ?? 'https://huggingface.co';
  let endpoint = endpointRaw;
  try {
    const u = new URL(endpointRaw);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
    endpoint = u.origin;
  } catch {
    problems.push(`set GATEWAY_HF_ENDPOINT to an https URL (got ${JSON.stringify(endpointRaw)})`);
  }
  const compressionRaw = get('GATEWAY_COMPRESSION') ?? 'on';
  const compression = compressionRaw === 'on';
  if (compressionRaw !== 'on' && compressionRaw !== 'off') {
    problems.push(`set GATEWAY_COMPRESSION to on or off (got ${JSON.stringify(compressionRaw)})`);
  }
  const revision = get('GATEWAY_HF_CORPUS_REVISION') ?? null;
  if (revision !== null && !/^[\w.\-/]{1,200}$/.test(revision)) {
    problems.push('set GATEWAY_HF_CORPUS_REVISION to a commit hash, tag or branch name');
  }

  const operator = parseOperator(get, environment, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    indexVersion: indexVersion ?? '',
    workerUrl: workers[0]?.url ?? '',
    workers: Object.freeze(workers),
    host,
    port,
    workerTimeoutMs,
    workerConnections,
    environment,
    hub: Object.freeze({ repo, revision, endpoint }),
    operator,
    compression: Object.freeze({ ...COMPRESSION_DEFAULTS, enabled: compression }),
    admission: Object.freeze({ perClient, inFlight }),
    trustProxy: Object.freeze(trustProxy),
  });
}

function parseOperator(
  get: (k: string) => string | undefined,
  environment: Environment,
  problems: string[],
): OperatorDetails | null {
  const name = get('GATEWAY_OPERATOR_NAME');
  const address = get('GATEWAY_OPERATOR_ADDRESS');
  const email = get('GATEWAY_OPERATOR_EMAIL');
  if (name === undefined && address === undefined && email === undefined && environment === 'development') return null;
  if (name === undefined) problems.push('set GATEWAY_OPERATOR_NAME (legal pages: who runs this service)');
  if (address === undefined) problems.push('set GATEWAY_OPERATOR_ADDRESS (postal address; separate lines with " | ")');
  if (email === undefined) problems.push('set GATEWAY_OPERATOR_EMAIL (contact address for the legal pages)');
  else if (!/^[^\s@]+@[^\s@]+$/.test(email))
    problems.push(`set GATEWAY_OPERATOR_EMAIL to an e-mail address (got ${JSON.stringify(email)})`);
  if (name === undefined || address === undefined || email === undefined) return null;
  return Object.freeze({
    name,
    address: Object.freeze(
      address
        .split('|')
        .map((l) => l.trim())
        .filter((l) => l !== ''),
    ),
    email,
    phone: get('GATEWAY_OPERATOR_PHONE') ?? null,
    representative: get('GATEWAY_OPERATOR_REPRESENTATIVE') ?? null,
    register: get('GATEWAY_OPERATOR_REGISTER') ?? null,
    vatId: get('GATEWAY_OPERATOR_VAT_ID') ?? null,
    contentResponsible: get('GATEWAY_OPERATOR_CONTENT_RESPONSIBLE') ?? null,
    logRetention: get('GATEWAY_LOG_RETENTION') ?? null,
  });
}
