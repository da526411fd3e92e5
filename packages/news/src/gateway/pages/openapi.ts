import type { TSchema } from '@sinclair/typebox';
import { v1Schemas } from '../v1/index.ts';
import { V2_DOCS } from '../v2/docs.ts';
import type { EndpointDoc } from '../endpoint-doc.ts';

const validation = {
  status: 422,
  description: 'Validation error (FastAPI/pydantic v2 format).',
  schema: v1Schemas.ValidationErrorResponse,
};
const unavailable = {
  status: 503,
  description: 'The search worker is down or slow; retry after the Retry-After seconds.',
  schema: v1Schemas.ServiceErrorResponse,
};

/** Every documented endpoint, described by the same TypeBox schemas that validate requests. */
export const ENDPOINTS: readonly EndpointDoc[] = [
  {
    method: 'POST',
    path: '/api/v1/count',
    summary: 'Count occurrences of a phrase in the selected crawl years.',
    request: v1Schemas.CountRequest,
    response: v1Schemas.CountResponse,
    errors: [validation, unavailable],
  },
  {
    method: 'POST',
    path: '/api/v1/find',
    summary: 'Rank intervals of a phrase per shard, for get_doc.',
    request: v1Schemas.FindRequest,
    response: v1Schemas.FindResponse,
    errors: [validation, unavailable],
  },
  {
    method: 'POST',
    path: '/api/v1/get_doc',
    summary: 'The article holding one occurrence, with context, spans and metadata.',
    request: v1Schemas.GetDocRequest,
    response: v1Schemas.GetDocResponse,
    errors: [validation, unavailable],
  },
  {
    method: 'GET',
    path: '/api/v1/info',
    summary: 'What is loaded: article count, crawl range, indexes, hub recipe.',
    request: null,
    response: v1Schemas.InfoResponse,
    errors: [unavailable],
  },
  ...V2_DOCS,
];

/** JSON schema without TypeBox's symbol keys (JSON.stringify drops them). */
const plain = (s: TSchema): unknown => JSON.parse(JSON.stringify(s));

/** The OpenAPI 3.1 document served at /openapi.json. */
export function buildOpenApi(): unknown {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const e of ENDPOINTS) {
    const responses: Record<string, unknown> = {
      200: { description: 'OK', content: { 'application/json': { schema: plain(e.response) } } },
    };
    for (const err of e.errors)
      responses[err.status] = {
        description: err.description,
        content: { 'application/json': { schema: plain(err.schema) } },
      };
    paths[e.path] = {
      ...paths[e.path],
      [e.method.toLowerCase()]: {
        summary: e.summary,
        ...(e.request === null
          ? {}
          : { requestBody: { required: true, content: { 'application/json': { schema: plain(e.request) } } } }),
        responses,
      },
    };
  }
  paths['/api/v2/health'] = {
    get: {
      summary: 'Passes only when the worker serves the release the gateway is configured for.',
      responses: {
        200: { description: '{status: "ok", index_version, shards}' },
        503: { description: '{status: "unavailable", reason, gateway_index_version, worker_index_version}' },
      },
    },
  };
  return { openapi: '3.1.0', info: { title: 'News corpus search', version: '0.1.0' }, paths };
}
