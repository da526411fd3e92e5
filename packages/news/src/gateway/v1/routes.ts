import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TObject, Static } from '@sinclair/typebox';
import type { GatewayContext } from '../context.ts';
import { GatewayError, ValidationFailed } from '../errors/index.ts';
import { issue, readRequestBody, validateBody } from '../validation/index.ts';
import { CountRequest, FindRequest, GetDocRequest, V1_BOUNDS } from './schemas.ts';
import { toMetadataV1 } from './metadata-v1.ts';
import { v1ErrorFromWorker } from './worker-errors.ts';
import { buildInfo } from './info.ts';
import { shardsUnavailable } from '../cluster/index.ts';
import { elapsedMs, requestDeadline } from '../request-timing.ts';

/** Validates a v1 body: the schema first, then the cross-field rule pydantic would run as a model validator. */
function parseV1<T extends TObject>(
  schema: T,
  req: FastifyRequest,
): Static<T> & { year_min: number | null; year_max: number | null } {
  const body = validateBody(schema, readRequestBody(req.body as Buffer | undefined, req.headers['content-type']));
  const b = body as Static<T> & { year_min: number | null; year_max: number | null };
  if (b.year_min !== null && b.year_max !== null && b.year_min > b.year_max) {
    throw new ValidationFailed([
      issue.valueError(['body'], b, `year_min (${b.year_min}) must be less than or equal to year_max (${b.year_max})`),
    ]);
  }
  return b;
}

/** v1 calls are case-sensitive substring counts and lookups: a few ms each (admission/cost.ts). */
const CHEAP = { config: { cost: 'cheap' } } as const;

/** POST /api/v1/count, /find, /get_doc and GET /api/v1/info (spec §4 v1). */
export function registerV1Routes(app: FastifyInstance, ctx: GatewayContext): void {
  app.post('/api/v1/count', CHEAP, async (req) => {
    const b = parseV1(CountRequest, req);
    const out = await ctx.worker.call(
      { kind: 'count', index: b.index, query: b.query, yearMin: b.year_min, yearMax: b.year_max },
      requestDeadline(req, ctx.worker.timeoutMs),
    );
    if (out.kind === 'error') throw v1ErrorFromWorker(out.error, b);
    return { count: out.count, latency_ms: elapsedMs(req) };
  });

  app.post('/api/v1/find', CHEAP, async (req) => {
    const b = parseV1(FindRequest, req);
    const out = await ctx.worker.call(
      { kind: 'find', index: b.index, query: b.query, yearMin: b.year_min, yearMax: b.year_max },
      requestDeadline(req, ctx.worker.timeoutMs),
    );
    if (out.kind === 'error') throw v1ErrorFromWorker(out.error, b);
    return {
      count: out.count,
      segment_by_shard: out.segments,
      shard_years: out.shardYears,
      latency_ms: elapsedMs(req),
    };
  });

  app.post('/api/v1/get_doc', CHEAP, async (req) => {
    const b = parseV1(GetDocRequest, req);
    const out = await ctx.worker.call(
      {
        kind: 'get_doc',
        index: b.index,
        query: b.query,
        yearMin: b.year_min,
        yearMax: b.year_max,
        s: b.s,
        rank: b.rank,
        maxCtxLen: b.max_ctx_len ?? V1_BOUNDS.maxCtxLenDefault,
      },
      requestDeadline(req, ctx.worker.timeoutMs),
    );
    if (out.kind === 'error') throw v1ErrorFromWorker(out.error, b);
    const d = out.doc;
    return {
      doc_ix: d.docIx,
      doc_len: d.docLen,
      disp_len: d.dispLen,
      needle_offset: d.needleOffset,
      text: d.text,
      spans: d.spans,
      metadata: toMetadataV1(d.metadata),
      latency_ms: elapsedMs(req),
    };
  });

  app.get('/api/v1/info', CHEAP, async (req) => {
    const out = await ctx.worker.call({ kind: 'identity' }, requestDeadline(req, ctx.worker.timeoutMs));
    if (out.kind !== 'identity')
      throw new GatewayError('worker_unavailable', 'The search worker did not report its release.');
    // Routed over several workers: an article count without some shards would be silently too small.
    const missing = ctx.worker.missingShards();
    if (missing.length > 0) throw shardsUnavailable(missing);
    return { ...buildInfo(out.identity, ctx.config, `${req.protocol}://${req.host}`), latency_ms: elapsedMs(req) };
  });
}
