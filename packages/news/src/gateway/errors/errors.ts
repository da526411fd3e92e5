import { V2_ERROR_STATUS, type V2ErrorBody } from '../../protocol/index.ts';
import type { ValidationIssue } from '../validation/index.ts';

/**
 * The closed set of gateway error codes, each mapped to its HTTP status in one place.
 * Validation keeps FastAPI's body (`{"detail": [...]}`); the others use `{"detail": "...", "code": "..."}`
 * as the design doc fixes for v2.
 */
export const ERROR_STATUS = {
  validation_failed: 422,
  body_unreadable: 400,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  rate_limited: 429,
  worker_unavailable: 503,
  release_unavailable: 503,
  shards_unavailable: 503,
  overloaded: 503,
  not_distributed: 501,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Codes that pass by themselves: the answer says when to ask again (`Retry-After: 1`). */
const RETRY_AFTER_CODES: ReadonlySet<ErrorCode> = new Set([
  'rate_limited',
  'overloaded',
  'worker_unavailable',
  'release_unavailable',
  'shards_unavailable',
]);

export class GatewayError extends Error {
  override readonly name = 'GatewayError';
  constructor(
    readonly code: Exclude<ErrorCode, 'validation_failed'>,
    readonly detail: string,
    readonly context: Readonly<Record<string, unknown>> = {},
  ) {
    super(detail);
  }
}

/** A request that fails validation: answered 422 with the pydantic-style item list. */
export class ValidationFailed extends Error {
  override readonly name = 'ValidationFailed';
  readonly code = 'validation_failed' as const;
  constructor(readonly issues: readonly ValidationIssue[]) {
    super('validation failed');
  }
}

/** A v2 request the worker refused with a documented code (stale version, limits, missing stores, …). */
export class V2Refused extends Error {
  override readonly name = 'V2Refused';
  constructor(readonly body: V2ErrorBody) {
    super(body.detail);
  }
}

export interface ErrorResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

/** Turns any thrown value into the documented response. Unknown errors reveal nothing. */
export function toErrorResponse(err: unknown): ErrorResponse {
  if (err instanceof ValidationFailed) {
    return { status: ERROR_STATUS.validation_failed, body: { detail: err.issues }, headers: {} };
  }
  if (err instanceof V2Refused) {
    // V2_ERROR_STATUS is the one table of v2 codes; the body is the worker's, already in the documented shape.
    // Only a missing store may come back by itself; a missing attribution table needs a rebuild.
    const retry =
      err.body.code === 'year_store_missing' ||
      err.body.code === 'release_unavailable' ||
      err.body.code === 'deadline_exceeded';
    return { status: V2_ERROR_STATUS[err.body.code], body: err.body, headers: retry ? { 'retry-after': '1' } : {} };
  }
  if (err instanceof GatewayError) {
    const headers: Record<string, string> = RETRY_AFTER_CODES.has(err.code) ? { 'retry-after': '1' } : {};
    return { status: ERROR_STATUS[err.code], body: { detail: err.detail, code: err.code, ...err.context }, headers };
  }
  return { status: 500, body: { detail: 'Internal Server Error', code: 'internal' }, headers: {} };
}
