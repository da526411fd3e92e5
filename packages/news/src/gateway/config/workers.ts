import { readFileSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parseShardSpec, ShardSpecError, type ShardSpec } from '../../protocol/index.ts';

/** One worker replica the gateway routes to. `shards` null: learn its shard set from its identity answer. */
export interface WorkerEndpoint {
  readonly url: string;
  readonly shards: ShardSpec | null;
}

/** The topology file format this build reads; a file of another version is refused at start-up. */
export const TOPOLOGY_FORMAT = 1;

/** `GATEWAY_TOPOLOGY` file: which worker serves which shards (src/gateway/DESIGN.md, "Topology"). */
const TopologyFile = Type.Object(
  {
    topology_format: Type.Integer(),
    workers: Type.Array(Type.Object({ url: Type.String(), shards: Type.String() }, { additionalProperties: false }), {
      minItems: 1,
    }),
  },
  { additionalProperties: false },
);
type TopologyFile = Static<typeof TopologyFile>;

function origin(raw: string): string | null {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' || u.pathname !== '/' || u.search !== '') return null;
    return u.origin;
  } catch {
    return null;
  }
}

function readTopology(path: string, problems: string[]): WorkerEndpoint[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    problems.push(`set GATEWAY_TOPOLOGY to a readable JSON topology file (${path}: ${(e as Error).message})`);
    return [];
  }
  if (!Value.Check(TopologyFile, parsed)) {
    const first = Value.Errors(TopologyFile, parsed).First();
    problems.push(
      `fix GATEWAY_TOPOLOGY ${path}: ${first === undefined ? 'not a topology' : `${first.path || '/'} ${first.message}`} ` +
        '(expected {"topology_format": 1, "workers": [{"url": "http://host:port", "shards": "2019-01..2019-06"}]})',
    );
    return [];
  }
  const file: TopologyFile = parsed;
  if (file.topology_format !== TOPOLOGY_FORMAT) {
    problems.push(
      `GATEWAY_TOPOLOGY ${path} has topology_format ${file.topology_format}; this gateway reads ${TOPOLOGY_FORMAT}`,
    );
    return [];
  }
  const out: WorkerEndpoint[] = [];
  for (const [i, w] of file.workers.entries()) {
    const url = origin(w.url);
    if (url === null) {
      problems.push(`fix GATEWAY_TOPOLOGY ${path}: workers[${i}].url ${JSON.stringify(w.url)} is not an http origin`);
      continue;
    }
    if (out.some((o) => o.url === url)) {
      problems.push(`fix GATEWAY_TOPOLOGY ${path}: ${url} is listed twice`);
      continue;
    }
    try {
      out.push({ url, shards: parseShardSpec(w.shards) });
    } catch (e) {
      if (!(e instanceof ShardSpecError)) throw e;
      problems.push(`fix GATEWAY_TOPOLOGY ${path}: workers[${i}].shards: ${e.message}`);
    }
  }
  return out;
}

/**
 * The worker replicas: from the topology file (`GATEWAY_TOPOLOGY`), or the comma-separated `GATEWAY_WORKER_URL`
 * (each worker then tells its shard set). Problems are appended, in the config's one-message style.
 */
export function parseWorkers(get: (key: string) => string | undefined, problems: string[]): WorkerEndpoint[] {
  const topology = get('GATEWAY_TOPOLOGY');
  const list = get('GATEWAY_WORKER_URL');
  if (topology !== undefined && list !== undefined) {
    problems.push('set either GATEWAY_TOPOLOGY or GATEWAY_WORKER_URL, not both');
    return [];
  }
  if (topology !== undefined) return readTopology(topology, problems);
  if (list === undefined) {
    problems.push(
      'set GATEWAY_WORKER_URL to the worker address, e.g. http://127.0.0.1:8701 (several, comma-separated, or GATEWAY_TOPOLOGY)',
    );
    return [];
  }
  const out: WorkerEndpoint[] = [];
  for (const raw of list
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '')) {
    const url = origin(raw);
    if (url === null)
      problems.push(
        `set GATEWAY_WORKER_URL to http origins such as http://127.0.0.1:8701 (got ${JSON.stringify(raw)})`,
      );
    else if (!out.some((o) => o.url === url)) out.push({ url, shards: null });
  }
  if (out.length === 0 && problems.length === 0) problems.push('set GATEWAY_WORKER_URL to at least one worker address');
  return out;
}
