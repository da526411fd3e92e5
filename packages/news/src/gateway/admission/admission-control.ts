import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/index.ts';
import { requestDeadline } from '../request-timing.ts';
import { AdmissionTimeout, createAdmission, type Admission } from '../worker-client/admission.ts';
import { createClientBudget, type ClientBudget } from './client-budget.ts';
import { costClass, type RouteCost } from './cost.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every `/api/` route: registration fails without it (see `registerAdmission`). */
    cost?: RouteCost;
  }
}

export interface AdmissionSettings {
  /** Expensive calls one client (address) may have admitted at once; the next is 429 (GATEWAY_EXPENSIVE_PER_CLIENT). */
  readonly perClient: number;
  /** Expensive calls in flight toward the workers at once, all clients together (GATEWAY_EXPENSIVE_IN_FLIGHT). */
  readonly inFlight: number;
  /** What a public request may wait in all (GATEWAY_WORKER_TIMEOUT_MS); the lane's wait counts against it. */
  readonly timeoutMs: number;
}

/** Seconds a refused client should wait: an expensive call usually ends well within a second. */
export const RETRY_AFTER_SECONDS = 1;

/** Thrown when a route under `/api/` is registered without a cost: a new call cannot forget to declare one. */
export class MissingRouteCost extends Error {
  override readonly name = 'MissingRouteCost';
}

/** The admission state of one gateway, readable by tests and health probes. */
export interface AdmissionState {
  readonly lane: Admission;
  readonly budget: ClientBudget;
}

/**
 * Cost-based admission (DESIGN.md "Fairness between clients"): cheap calls go straight on; an expensive call takes
 * one unit of its client's budget (none left: 429 `rate_limited`) and then one of `inFlight` lane slots, waiting in
 * arrival order until its deadline (then 503 `overloaded`). Both are given back when the answer is sent or the
 * connection closes. The client is `req.ip`: the socket address, or X-Forwarded-For from a trusted proxy
 * (GATEWAY_TRUST_PROXY).
 * @example registerAdmission(app, { perClient: 2, inFlight: 2, timeoutMs: 2000 })
 */
export function registerAdmission(app: FastifyInstance, settings: AdmissionSettings): AdmissionState {
  const lane = createAdmission(settings.inFlight);
  const budget = createClientBudget(settings.perClient);

  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/') && route.config?.cost === undefined) {
      throw new MissingRouteCost(
        `${String(route.method)} ${route.url} declares no cost (config.cost: 'cheap' | 'expensive' | 'by_matching')`,
      );
    }
  });

  const refuse = (): GatewayError =>
    new GatewayError(
      'rate_limited',
      `This client already has ${settings.perClient} expensive calls (estimate, timeline, contexts, documents, occurrences, case-insensitive or whole-word queries) under way; ` +
        `retry after ${RETRY_AFTER_SECONDS} s. Cheap calls (counts, finds, get_doc, metadata, info) are not limited.`,
      { limit: settings.perClient },
    );

  // Callback style: an async hook would cost a promise per request on the cheap path too.
  app.addHook('preHandler', (req: FastifyRequest, reply, done) => {
    const cost = req.routeOptions.config.cost;
    if (cost === undefined || costClass(cost, req.body) === 'cheap') {
      done();
      return;
    }
    const client = req.ip;
    if (!budget.tryTake(client)) {
      done(refuse());
      return;
    }
    let inLane = false;
    let released = false;
    // Both units come back exactly once: when the answer is sent ('finish') or the connection goes first ('close').
    const giveBack = () => {
      if (released) return;
      released = true;
      if (inLane) lane.release();
      budget.give(client);
    };
    reply.raw.once('finish', giveBack);
    reply.raw.once('close', giveBack);
    const wait = lane.acquire(requestDeadline(req, settings.timeoutMs));
    if (wait === null) {
      inLane = true;
      done();
      return;
    }
    wait.then(
      () => {
        // The client left while waiting: hand the slot straight on.
        if (released) {
          lane.release();
          return;
        }
        inLane = true;
        done();
      },
      (e: unknown) => {
        done(
          e instanceof AdmissionTimeout
            ? new GatewayError(
                'overloaded',
                `Expensive calls of all clients filled the ${settings.inFlight} slots for longer than ${settings.timeoutMs} ms; retry after ${RETRY_AFTER_SECONDS} s.`,
              )
            : (e as Error),
        );
      },
    );
  });
  return { lane, budget };
}
