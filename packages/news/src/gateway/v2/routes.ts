import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WorkerIdentity } from '../../protocol/index.ts';
import type { GatewayContext } from '../context.ts';
import type { RouteCost } from '../admission/index.ts';
import { V2_ENDPOINTS } from './endpoints.ts';

/** A v2 endpoint. It runs only while the worker serves the configured release, and receives that identity. */
export interface V2Route {
  readonly method: 'GET' | 'POST';
  /** Path below /api/v2, e.g. `/count`. */
  readonly path: string;
  /** What the call costs the worker (admission/cost.ts); required, so a new call cannot skip admission. */
  readonly cost: RouteCost;
  /** Returns the body, or `reply` after sending pre-encoded JSON itself. */
  handler(req: FastifyRequest, ctx: GatewayContext, identity: WorkerIdentity, reply: FastifyReply): Promise<unknown>;
}

/**
 * The v2 endpoints, one per call of the registry `V2_CALLS` (search-v2/calls) that has a route (endpoints.ts).
 * Health is built in (health.ts) because it must answer when the binding fails.
 */
export const V2_ROUTES: readonly V2Route[] = V2_ENDPOINTS;
