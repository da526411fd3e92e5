import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TObject } from '@sinclair/typebox';
import type { V2CountResult, V2Exchanges, V2Kind, V2ReleaseInfo, V2WorkerReply, WorkerReply, WorkerRequest } from '../../protocol/index.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError, V2Refused } from '../errors/index.ts';
import { readRequestBody, validateBody } from '../validation/index.ts';
import { elapsedMs, requestDeadline } from '../request-timing.ts';
import { clientGone } from '../client-gone.ts';
import { pythonExample } from '../v1/info.ts';
import { shardDamaged } from '../v1/worker-errors.ts';
import type { V2Route } from './routes.ts';
import type { RouteCost } from '../admission/index.ts';
import {
  ContextsRequest, CountV2Request, DocumentsRequest, EstimateRequest, FindV2Request, GetDocV2Request, MetadataRequest, OccurrencesRequest,
  TimelineRequest,
} from './schemas.ts';
import { SearchRequest } from './search-schemas.ts';

const SERVICE_NAME = 'News corpus search';

function parse<T extends TObject>(schema: T, req: FastifyRequest) {
  return validateBody(schema, readRequestBody(req.body as Buffer | undefined, req.headers['content-type']));
}

/**
 * Sends one v2 request to the worker and unwraps its outcome: a refusal becomes `V2Refused` (its code maps to
 * the status in one table), an answer from another release than the configured one becomes 503. The worker
 * itself checks `expected_index_version` before resolving ranks, so this never mixes releases. The worker stops
 * computing at the request's deadline, or when the client goes away.
 * Returns the response's JSON text as the worker encoded it.
 */
async function callWorker<K extends V2Kind>(ctx: GatewayContext, req: FastifyRequest, res: FastifyReply, kind: K, body: V2Exchanges[K]['body']): Promise<string> {
  // The generic K defeats narrowing of the reply union; the worker client already checked reply.kind.
  const reply = (await ctx.worker.call({ kind, body } as Extract<WorkerRequest, { kind: K }>, requestDeadline(req, ctx.worker.timeoutMs),
    undefined, clientGone(res.raw))) as V2WorkerReply | Extract<WorkerReply, { kind: 'error' }>;
  if (reply.kind === 'error') {
    if (reply.error.code === 'shard_damaged') throw shardDamaged(reply.error);
    throw new GatewayError('worker_unavailable', `The search worker refused the request (${reply.error.code}).`);
  }
  if (!reply.outcome.ok) {
    // The worker's clock may pass the deadline a moment before the gateway's timer: the client gets the gateway's
    // own answer to a late worker either way, as documented (deadline_exceeded is for direct /rpc callers).
    if (reply.outcome.error.code === 'deadline_exceeded') {
      throw new GatewayError('worker_unavailable', 'The search worker did not finish within the request\'s deadline; try again shortly.');
    }
    throw new V2Refused(reply.outcome.error);
  }
  if (reply.indexVersion !== ctx.binding.expected) {
    throw new GatewayError('release_unavailable',
      `The worker now serves release ${reply.indexVersion}, the gateway is configured for ${ctx.binding.expected}; retry shortly.`,
      { gateway_index_version: ctx.binding.expected, worker_index_version: reply.indexVersion });
  }
  return reply.outcome.json;
}

/** A continuation or find: validated body in, the worker's JSON text out unchanged. */
function passThrough<K extends V2Kind>(path: string, kind: K, schema: TObject, cost: RouteCost): V2Route {
  return {
    method: 'POST',
    path,
    cost,
    handler: async (req, ctx, _identity, reply) => {
      const json = await callWorker(ctx, req, reply, kind, parse(schema, req) as V2Exchanges[K]['body']);
      return reply.type('application/json; charset=utf-8').send(json);
    },
  };
}

/**
 * POST /api/v2/find, count, get_doc, occurrences, documents, metadata and GET /api/v2/info (spec §4 v2), and the
 * research additions POST /api/v2/timeline, contexts, estimate and search (search-v2/DESIGN.md).
 */
export const V2_ENDPOINTS: readonly V2Route[] = [
  passThrough('/find', 'v2_find', FindV2Request, 'by_matching'),
  {
    method: 'POST',
    path: '/count',
    cost: 'by_matching',
    handler: async (req, ctx, _identity, reply) => {
      const result = JSON.parse(await callWorker(ctx, req, reply, 'v2_count', parse(CountV2Request, req))) as V2CountResult;
      return { ...result, latency_ms: elapsedMs(req) };
    },
  },
  passThrough('/get_doc', 'v2_get_doc', GetDocV2Request, 'cheap'),
  passThrough('/occurrences', 'v2_occurrences', OccurrencesRequest, 'expensive'),
  passThrough('/documents', 'v2_documents', DocumentsRequest, 'expensive'),
  passThrough('/metadata', 'v2_metadata', MetadataRequest, 'cheap'),
  passThrough('/timeline', 'v2_timeline', TimelineRequest, 'expensive'),
  passThrough('/contexts', 'v2_contexts', ContextsRequest, 'expensive'),
  passThrough('/estimate', 'v2_estimate', EstimateRequest, 'expensive'),
  passThrough('/search', 'v2_search', SearchRequest, 'expensive'),
  {
    method: 'GET',
    path: '/info',
    cost: 'cheap',
    handler: async (req, ctx, _identity, reply) => {
      // `?index=` picks the index described (default: news); an unknown one is 422 unknown_index.
      const asked = (req.query as { index?: unknown }).index;
      const loaded = JSON.parse(await callWorker(ctx, req, reply, 'v2_info', { index: typeof asked === 'string' ? asked : null })) as V2ReleaseInfo;
      const { repo, revision } = ctx.config.hub;
      return {
        name: SERVICE_NAME,
        description: `Exact phrase search (byte-exact, case-sensitive) over crawled news articles, release ${loaded.index_version}, `
          + `index ${loaded.name}. Continuations carry expected_index_version and answer 409 once the release changes.`,
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
          note: repo === null
            ? 'No dataset hub copy is configured; everything this API returns is served locally.'
            : `The hub copy in ${repo} is optional: local search, get_doc and full_text never depend on it.`,
        },
      };
    },
  },
];
