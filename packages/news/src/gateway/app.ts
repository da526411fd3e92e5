import Fastify, { type FastifyInstance } from 'fastify';
import type { GatewayContext } from './context.ts';
import { ERROR_STATUS, GatewayError, toErrorResponse } from './errors/index.ts';
import { registerV1Routes } from './v1/index.ts';
import { registerV2 } from './v2/index.ts';
import { NOT_FOUND_HTML, registerPages, sendHtml } from './pages/index.ts';
import { registerBrowserClient } from './client/index.ts';
import { registerCompression } from './compression/index.ts';
import { elapsedMs, markStart } from './request-timing.ts';
import { drainConnectionsOnClose } from './connection-drain.ts';
import { registerAdmission } from './admission/index.ts';

/** Request bodies are small JSON objects; 1 MiB leaves room for a 10,000-character query in any script. */
const BODY_LIMIT_BYTES = 1024 * 1024;

/** The path without its query string (never logged: it may carry what a user typed). */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function clientError(err: unknown): GatewayError | null {
  const status = (err as { statusCode?: unknown } | null)?.statusCode;
  if (status === 413)
    return new GatewayError('payload_too_large', `Request body larger than ${BODY_LIMIT_BYTES} bytes.`);
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new GatewayError('body_unreadable', 'There was an error parsing the body');
  return null;
}

/**
 * Builds the gateway's HTTP app (not listening). Routes: v1, v2 (health + V2_ROUTES), the HTML pages.
 * `/` is left to the browser client.
 */
export function buildGatewayApp(ctx: GatewayContext): FastifyInstance {
  const trustProxy = ctx.config.trustProxy.length > 0 ? [...ctx.config.trustProxy] : false;
  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT_BYTES,
    return503OnClosing: true,
    keepAliveTimeout: 65_000,
    trustProxy,
  });
  // Every answer, whoever writes it: routes, the error and not-found handlers, and the 400s Fastify sends for a
  // malformed URL before any hook runs (hence the raw server's request event, not an onRequest hook).
  // Node merges it into the headers each answer writes; a browser then never reads a JSON error as HTML or script.
  app.server.prependListener('request', (_req, res) => {
    res.setHeader('x-content-type-options', 'nosniff');
  });
  drainConnectionsOnClose(app);

  // FastAPI parses JSON itself and answers malformed bodies with a 422; take the raw bytes and do the same.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  // Callback-style hooks: an async hook costs a promise per request and per hook on the hot path.
  app.addHook('onRequest', (req, _reply, done) => {
    markStart(req);
    done();
  });
  // One line per request, no bodies, no client addresses (the privacy page says so).
  app.addHook('onResponse', (req, reply, done) => {
    ctx.log.info(
      { method: req.method, path: pathOf(req.url), status: reply.statusCode, latency_ms: elapsedMs(req) },
      'request',
    );
    done();
  });

  app.setErrorHandler((err, req, reply) => {
    const mapped = clientError(err);
    const res = toErrorResponse(mapped ?? err);
    if (res.status >= 500 && !(err instanceof GatewayError)) {
      ctx.log.error({ err, method: req.method, path: req.url.split('?')[0] }, 'unhandled error');
    }
    return reply.code(res.status).headers(res.headers).send(res.body);
  });
  // FastAPI answers a known path with the wrong method 405 (with Allow), any other path 404.
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const set = methodsByPath.get(route.url) ?? new Set<string>();
    for (const m of methods) if (m !== 'HEAD') set.add(m);
    methodsByPath.set(route.url, set);
  });
  app.setNotFoundHandler((req, reply) => {
    const allowed = methodsByPath.get(req.url.split('?')[0] ?? '');
    if (allowed !== undefined && allowed.size > 0) {
      return reply
        .code(ERROR_STATUS.method_not_allowed)
        .header('allow', [...allowed].join(', '))
        .send({ detail: 'Method Not Allowed' });
    }
    // API paths keep FastAPI's JSON; a page address a browser follows gets a page.
    const path = req.url.split('?')[0] ?? '';
    if ((req.method === 'GET' || req.method === 'HEAD') && !path.startsWith('/api/'))
      return sendHtml(reply, NOT_FOUND_HTML, ERROR_STATUS.not_found);
    return reply.code(ERROR_STATUS.not_found).send({ detail: 'Not Found' });
  });

  // Before any route: its onRoute hook refuses an /api/ route without a declared cost.
  registerAdmission(app, { ...ctx.config.admission, timeoutMs: ctx.config.workerTimeoutMs });
  registerCompression(app, ctx.config.compression);
  // Routes in a plugin registered after the compression plugin, so its onRoute hook sees them all.
  app.register(async (routes) => {
    registerV1Routes(routes, ctx);
    registerV2(routes, ctx);
    registerPages(routes, ctx.config);
  });
  registerBrowserClient(app);
  return app;
}
