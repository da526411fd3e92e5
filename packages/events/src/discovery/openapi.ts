import { NAMESPACE } from '../post/index.ts';
import type { TSchema } from '@sinclair/typebox';
import { isDeclared, isRequired, swaggerType } from '../http/args.ts';
import type { CompiledRoute, HttpMethod } from '../http/route.ts';
import type { Site } from '../post/index.ts';
import { DOCUMENTED_PATHS, type OperationDoc, type PathDoc, type Verb } from './openapi.operations.ts';
import type { openApiSchemas } from './openapi.schemas.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** A route pattern (`/events/(?P<id>\\d+)`) as an OpenAPI path template (`/events/{id}`). */
const templateOf = (pattern: string) => pattern.replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}');

type Args = [string, TSchema][];
const argsOf = (route: CompiledRoute, method: HttpMethod): Args => {
  const e = route.endpoints.find((x) => x.methods.includes(method));
  if (e === undefined) throw new Error(`/doc documents ${method} ${route.pattern}, which is not routed`);
  return Object.entries(e.args.schema.properties as Record<string, TSchema>).filter(([, s]) => isDeclared(s));
};

/** A query or path parameter as swaggerize_args prints it (`explode: false` is dropped there, as every false value). */
function parameter(path: string, name: string, s: TSchema, where: 'query' | 'path'): Record<string, unknown> {
  const { csv, ...schema } = swaggerType(s);
  const required = path.includes(`{${name}}`) || isRequired(s);
  return { name, in: where, description: s.description ?? '', required, schema, ...(csv ? { style: 'form' } : {}) };
}

function operation(
  path: string,
  doc: PathDoc,
  verb: Verb,
  op: OperationDoc,
  route: CompiledRoute,
): Record<string, unknown> {
  const isList = !path.includes('{');
  const okSchema = isList ? { title: path.slice(1), type: 'array', items: ref(doc.entity!) } : ref(doc.entity!);
  const responses = Object.fromEntries(
    Object.entries(op.responses).map(([status, description]) => [
      status,
      doc.entity !== undefined && (status === '200' || status === '201')
        ? { description, content: { 'application/json': { schema: okSchema } } }
        : { description },
    ]),
  );
  if (doc.entity === undefined) return { responses };
  // Every operation on an item documents the read arguments as path parameters, as the plugin's endpoints do.
  const readArgs = argsOf(route, 'GET');
  const out: Record<string, unknown> = {
    parameters: readArgs.map(([n, s]) => parameter(path, n, s, isList ? 'query' : 'path')),
  };
  if (verb === 'post') {
    const inParams = new Set(readArgs.map(([n]) => n).filter((n) => !op.bodyKeeps?.includes(n)));
    const body = argsOf(route, 'POST').filter(([n]) => !inParams.has(n));
    out.requestBody = {
      content: {
        'application/x-www-form-urlencoded': {
          schema: {
            type: 'object',
            properties: Object.fromEntries(
              body.map(([n, s]) => {
                const { csv: _csv, ...t } = swaggerType(s);
                return [n, { ...t, description: s.description ?? '' }];
              }),
            ),
          },
        },
      },
    };
  }
  out.responses = responses;
  return out;
}

/**
 * GET `/doc`: the OpenAPI 3.0.0 document as TEC 6.17.2 emits it. What is documented and the texts are the plugin's
 * (openapi.operations.ts, openapi.schemas.ts); the parameters come from the same route table that checks requests.
 */
export function openApiDocument(
  site: Site,
  routes: readonly CompiledRoute[],
  schemas: ReturnType<typeof openApiSchemas>,
): Record<string, unknown> {
  const byPath = new Map(routes.filter((r) => r.namespace === NAMESPACE).map((r) => [templateOf(r.pattern), r]));
  const paths: Record<string, unknown> = {};
  for (const [path, doc] of Object.entries(DOCUMENTED_PATHS)) {
    const route = byPath.get(path);
    if (route === undefined) throw new Error(`/doc documents ${path}, which is not routed`);
    paths[path] = Object.fromEntries(
      Object.entries(doc.ops).map(([verb, op]) => [verb, operation(path, doc, verb as Verb, op, route)]),
    );
  }
  return {
    openapi: '3.0.0',
    info: {
      version: '1.0.0',
      title: 'The Events Calendar REST API',
      description: 'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
    },
    components: { schemas },
    // The plugin drops the port here; we keep it so the URL works (README, differences).
    servers: [{ url: `${site.rest}/` }],
    paths,
  };
}
