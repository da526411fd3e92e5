import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requestDeadline } from '../request-timing.ts';
import type { GatewayContext } from '../context.ts';
import { GatewayError } from '../errors/index.ts';
import { healthFromBinding } from './health.ts';
import { V2_ROUTES, type V2Route } from './routes.ts';
import type { BindingState } from '../worker-client/index.ts';

export { V2_ROUTES, type V2Route } from './routes.ts';
export { healthFromBinding, type HealthBody } from './health.ts';

/** How long a confirmed binding is trusted before v2 requests ask the worker again. */
const BINDING_MAX_AGE_MS = 1000;

function releaseUnavailable(state: BindingState, expected: string): GatewayError {
  const worker = state.kind === 'mismatch' ? state.workerIndexVersion : null;
  const why = state.kind === 'unreachable' ? state.reason : `the worker serves release ${worker ?? 'unknown'}`;
  return new GatewayError(
    'release_unavailable',
    `The release identity is not confirmed (${why}); v2 requests need the worker to serve release ${expected}.`,
    { gateway_index_version: expected, worker_index_version: worker },
  );
}

/** Registers /api/v2: health, the routes of V2_ROUTES behind the release check, and a guarded not-found. */
export function registerV2(app: FastifyInstance, ctx: GatewayContext, routes: readonly V2Route[] = V2_ROUTES): void {
  app.register(
    async (v2) => {
      v2.get('/health', { config: { cost: 'cheap' } }, async (req, reply) => {
        const state = await ctx.binding.check(requestDeadline(req, ctx.worker.timeoutMs));
        const { status, body } = healthFromBinding(state, ctx.binding.expected, {
          missing: ctx.worker.missingShards(),
          workers: ctx.worker.replicas(),
        });
        return reply.code(status).send(body);
      });

      const bound = async (req: FastifyRequest) => {
        const state = await ctx.binding.current(BINDING_MAX_AGE_MS, requestDeadline(req, ctx.worker.timeoutMs));
        if (state.kind !== 'bound') throw releaseUnavailable(state, ctx.binding.expected);
        return state.identity;
      };

      for (const route of routes) {
        v2.route({
          method: route.method,
          url: route.path,
          config: { cost: route.cost },
          handler: async (req, reply) => route.handler(req, ctx, await bound(req), reply),
        });
      }

      // Any other v2 path: a missing release identity is reported first (spec §7), then FastAPI's 404.
      v2.setNotFoundHandler(async (req, reply) => {
        await bound(req);
        return reply.code(404).send({ detail: 'Not Found' });
      });
    },
    { prefix: '/api/v2' },
  );
}
