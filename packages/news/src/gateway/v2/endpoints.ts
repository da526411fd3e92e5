import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  V2_CALLS,
  v2CallOf,
  type V2CountResult,
  type V2Exchanges,
  type V2Kind,
  type V2ReleaseInfo,
  type V2WorkerReply,
  type WorkerReply,
  type WorkerRequest,
} from '../../protocol/index.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError, V2Refused } from '../errors/index.ts';
import { readRequestBody, validateBody } from '../validation/index.ts';
import { elapsedMs, requestDeadline } from '../request-timing.ts';
import { clientGone } from '../client-gone.ts';
import { pythonExample } from '../v1/info.ts';
import { shardDamaged } from '../v1/worker-errors.ts';
import type { V2Route } from './routes.ts';

const SERVICE_NAME = 'News corpus search';

/** The body validated against the call's request schema (pydantic-style 422 on failure). */
function parse<K extends V2Kind>(kind: K, req: FastifyRequest): V2Exchanges[K]['body'] {
  return validateBody(
    v2CallOf(kind).request,
    readRequestBody(req.body as Buffer | undefined, req.headers['content-type']),
  ) as V2Exchanges[K]['body'];
}

/**
 * Sends one v2 request to the worker and unwraps its outcome: a refusal becomes `V2Refused` (its code maps to
 * the status in one table), an answer from another release than the configured one becomes 503. The worker
 * itself checks `expected_index_version` before resolving ranks, so this never mixes releases. The worker stops
 * computing at the request's deadline, or when the client goes away.
 * Returns the response's JSON text as the worker encoded it.
 */
async function callWorker<K extends V2Kind>(
  ctx: GatewayContext,
  req: FastifyRequest,
  res: FastifyReply,
  kind: K,
  body: V2Exchanges[K]['body'],
): Promise<string> {
  // The generic K defeats narrowing of the reply union; the worker client already checked reply.kind.
  const reply = (await ctx.worker.call(
    { kind, body } as Extract<WorkerRequest, { kind: K }>,
    requestDeadline(req, ctx.worker.timeoutMs),
    undefined,
    clientGone(res.raw),
  )) as V2WorkerReply | Extract<WorkerReply, { kind: 'error' }>;
  if (reply.kind === 'error') {
    if (reply.error.code === 'shard_damaged') throw shardDamaged(reply.error);
    throw new GatewayError('worker_unavailable', `The search worker refused the request (${reply.error.code}).`);
  }
  if (!reply.outcome.ok) {
    // The worker's clock may pass the deadline a moment before the gateway's timer: the client gets the gateway's
    // own answer to a late worker either way, as documented (deadline_exceeded is for direct /rpc callers).
    if (reply.outcome.error.code === 'deadline_exceeded') {
      throw new GatewayError(
        'worker_unavailable',
        "The search worker did not finish within the request's deadline; try again shortly.",
      );
    }
    throw new V2Refused(reply.outcome.error);
  }
  if (reply.indexVersion !== ctx.binding.expected) {
    throw new GatewayError(
      'release_unavailable',
      `The worker now serves release ${reply.indexVersion}, the gateway is configured for ${ctx.binding.expected}; retry shortly.`,
      { gateway_index_version: ctx.binding.expected, worker_index_version: reply.indexVersion },
    );
  }
  return reply.outcome.json;
}

/** A call the gateway answers as the worker does: validated body in, the worker's JSON text out unchanged. */
function passThrough<K extends V2Kind>(kind: K): V2Route {
  const route = V2_CALLS[kind].route;
  if (route === null) throw new Error(`${kind} has no public route`);
  return {
    method: route.method,
    path: route.path,
    cost: route.cost,
    handler: async (req, ctx, _identity, reply) => {
      const json = await callWorker(ctx, req, reply, kind, parse(kind, req));
      return reply.type('application/json; charset=utf-8').send(json);
    },
  };
}

/** Calls whose public response the gateway adds to (their schemas: schemas.ts). */
const DECORATED: Partial<Record<V2Kind, V2Route>> = {
  v2_count: {
    ...passThrough('v2_count'),
    handler: async (req, ctx, _identity, reply) => {
      const result = JSON.parse(await callWorker(ctx, req, reply, 'v2_count', parse('v2_count', req))) as V2CountResult;
      return { ...result, latency_ms: elapsedMs(req) };
    },
  },
  v2_info: {
    ...passThrough('v2_info'),
    handler: async (req, ctx, _identity, reply) => {
      // `?index=` picks the index described (default: news); an unknown one is 422 unknown_index.
      const asked = (req.query as { index?: unknown }).index;
      const loaded = JSON.parse(
        await callWorker(ctx, req, reply, 'v2_info', { index: typeof asked === 'string' ? asked : null }),
      ) as V2ReleaseInfo;
      const { repo, revision } = ctx.config.hub;
      return {
        name: SERVICE_NAME,
        description:
          `Exact phrase search (byte-exact, case-sensitive) over crawled news articles, release ${loaded.index_version}, ` +
          `index ${loaded.name}. Continuations carry expected_index_version and answer 409 once the release changes.`,
        index_version: loaded.index_version,
        document_count: loaded.document_count,
        date_range: loaded.date_range,
        shards: loaded.shards,
        available_indexes: loaded.available_indexes,
        filters: loaded.filters,
        hub_retrieval: {
          repo: repo ?? '',
          revision,
          python_example: pythonExample(ctx.config, `${req.protocol}://${req.host}`),
          note:
            repo === null
              ? 'No dataset hub copy is configured; everything this API returns is served locally.'
              : `The hub copy in ${repo} is optional: local search, get_doc and full_text never depend on it.`,
        },
      };
    },
  },
};

/**
 * Every v2 call with a public route (search-v2/calls): POST /api/v2/find, count, get_doc, occurrences, documents,
 * metadata and GET /api/v2/info (spec §4 v2), and the research additions timeline, contexts and estimate.
 */
export const V2_ENDPOINTS: readonly V2Route[] = (Object.keys(V2_CALLS) as V2Kind[])
  .filter((kind) => V2_CALLS[kind].route !== null)
  .map((kind) => DECORATED[kind] ?? passThrough(kind));
