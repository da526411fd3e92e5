import type { FastifyRequest } from 'fastify';

const started = new WeakMap<FastifyRequest, number>();

/** Marks the moment a request arrived (onRequest hook), so latency_ms covers parsing, validation and the worker call. */
export function markStart(req: FastifyRequest): void {
  started.set(req, performance.now());
}

/** Milliseconds since the request arrived, rounded to microseconds. */
export function elapsedMs(req: FastifyRequest): number {
  const t0 = started.get(req) ?? performance.now();
  return Math.round((performance.now() - t0) * 1000) / 1000;
}

/**
 * When the request stops waiting for the worker: arrival + the budget, one deadline for all its worker calls
 * (a v2 request asks for the release identity first), in `performance.now()` time as the worker client expects.
 */
export function requestDeadline(req: FastifyRequest, budgetMs: number): number {
  return (started.get(req) ?? performance.now()) + budgetMs;
}
