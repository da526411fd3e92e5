import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { buildClientAssets, type ClientAsset } from './client-assets.ts';

export { buildClientAssets, type ClientAsset, type ClientAssets } from './client-assets.ts';

/**
 * The page's CSP: scripts, styles and API calls from this origin only; no inline code, no plugins, no framing.
 * `blob:` downloads (exports) are navigations, which the CSP does not restrict.
 */
export const CLIENT_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': CLIENT_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
} as const;

/** True when an Accept-Encoding header accepts `coding` (named or `*`, with a q-value above 0). */
export function acceptsEncoding(header: string | undefined, coding: string): boolean {
  if (header === undefined) return false;
  let star = false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (name.trim() === coding) return accepted;
    if (name.trim() === '*') star = accepted;
  }
  return star;
}

function send(req: FastifyRequest, reply: FastifyReply, a: ClientAsset, cacheControl: string): FastifyReply {
  const accept = req.headers['accept-encoding'];
  const coding = acceptsEncoding(accept, 'br') ? 'br' : acceptsEncoding(accept, 'gzip') ? 'gzip' : null;
  const variant = coding === null ? a : a.encoded[coding];
  reply.headers({
    ...SECURITY_HEADERS,
    'content-type': a.contentType,
    'cache-control': cacheControl,
    etag: variant.etag,
    vary: 'Accept-Encoding',
  });
  if (coding !== null) reply.header('content-encoding', coding);
  if (req.headers['if-none-match'] === variant.etag) return reply.code(304).send();
  return reply.code(200).send(variant.body);
}

/**
 * Serves the browser client: `/` (revalidated on every load) and its content-hashed `/assets/…` files (cached
 * for a year, immutable). The bundle is built once while the app starts (esbuild, about 0.1 s).
 * @example registerBrowserClient(app); // in buildGatewayApp, next to registerPages
 */
export function registerBrowserClient(app: FastifyInstance): void {
  // Idempotent, so a harness that adds the client to an app which already has it does not declare `/` twice.
  if (app.hasDecorator('newsBrowserClient')) return;
  app.decorate('newsBrowserClient', true);
  app.register(async (scope) => {
    const assets = await buildClientAssets();
    scope.get('/', (req, reply) => send(req, reply, assets.index, 'no-cache'));
    for (const a of assets.files.values()) {
      scope.get(a.path, (req, reply) => send(req, reply, a, 'public, max-age=31536000, immutable'));
    }
  });
}
