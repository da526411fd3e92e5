import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../config/index.ts';
import { sendHtml } from './html.ts';
import { renderApiDocs } from './api-docs.ts';
import { buildOpenApi } from './openapi.ts';
import { renderDatenschutz, renderImpressum } from './legal.ts';

export { HTML_SECURITY_HEADERS, NOT_FOUND_HTML, esc, page, sendHtml } from './html.ts';
export { buildOpenApi, ENDPOINTS } from './openapi.ts';

/** /api-docs, /openapi.json, /impressum, /datenschutz. Rendered once: they depend only on schemas and settings. */
export function registerPages(app: FastifyInstance, config: GatewayConfig): void {
  const apiDocs = renderApiDocs(config.admission);
  const openapi = JSON.stringify(buildOpenApi());
  const impressum = renderImpressum(config);
  const datenschutz = renderDatenschutz(config);
  app.get('/api-docs', (_req, reply) => sendHtml(reply, apiDocs));
  app.get('/openapi.json', (_req, reply) => reply.type('application/json').send(openapi));
  app.get('/impressum', (_req, reply) => sendHtml(reply, impressum));
  app.get('/datenschutz', (_req, reply) => sendHtml(reply, datenschutz));
}
