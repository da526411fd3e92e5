import type { TSchema } from '@sinclair/typebox';
import { V2_CALLS, type V2CallCost, type V2RefusalDoc } from '../../protocol/index.ts';
import { ValidationErrorResponse } from '../v1/schemas.ts';
import * as s from './schemas.ts';
import type { EndpointDoc } from '../endpoint-doc.ts';

const err = ({ status, description }: V2RefusalDoc) => ({ status, description, schema: s.V2ErrorResponse });
const validation = {
  status: 422,
  description: 'Validation error (FastAPI/pydantic v2 format).',
  schema: ValidationErrorResponse,
};
const unavailable = err({
  status: 503,
  description:
    'release_unavailable / worker_unavailable: the worker does not serve the configured release, or is down; retry after Retry-After.',
});
// Admission (gateway/DESIGN.md "Fairness between clients"): expensive calls only, each with Retry-After: 1.
const overloaded = err({
  status: 503,
  description:
    'overloaded: expensive calls of all clients filled the expensive slots (GATEWAY_EXPENSIVE_IN_FLIGHT, default 2) until the deadline; retry after Retry-After.',
});
const ADMISSION: Readonly<Record<V2CallCost, readonly ReturnType<typeof err>[]>> = {
  cheap: [],
  expensive: [
    err({
      status: 429,
      description:
        'rate_limited: this client (address) already has its expensive calls under way (GATEWAY_EXPENSIVE_PER_CLIENT, default 6); retry after Retry-After. Body: detail, code, limit.',
    }),
    overloaded,
  ],
  by_matching: [
    err({
      status: 429,
      description:
        "rate_limited, only for case-insensitive or whole-word queries (they count as expensive): the client's expensive calls are all under way; retry after Retry-After.",
    }),
    overloaded,
  ],
};

/** The public response where the gateway adds to the call's answer. */
const RESPONSES: Partial<Record<keyof typeof V2_CALLS, TSchema>> = {
  v2_count: s.CountV2Response,
  v2_info: s.InfoV2Response,
};

/**
 * The v2 endpoints for /api-docs and /openapi.json, derived from the calls' declarations (search-v2/calls): the
 * schemas that validate, the call's own refusals after the validation 422 (/openapi.json keeps one entry per
 * status: the call's own 422 wins), then admission by cost, then availability.
 */
export const V2_DOCS: readonly EndpointDoc[] = Object.entries(V2_CALLS).flatMap(([kind, call]) => {
  const route = call.route;
  if (route === null) return [];
  return [
    {
      method: route.method,
      path: `/api/v2${route.path}`,
      summary: route.summary,
      request: route.method === 'POST' ? call.request : null,
      response: RESPONSES[kind as keyof typeof V2_CALLS] ?? call.answer,
      errors: [
        ...(route.method === 'POST' ? [validation] : []),
        ...route.refusals.map(err),
        ...ADMISSION[route.cost],
        unavailable,
      ],
    },
  ];
});
