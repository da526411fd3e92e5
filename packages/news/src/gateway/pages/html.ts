import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1b1b}
table{border-collapse:collapse;margin:.5rem 0 1.5rem}th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
code,pre{font-family:ui-monospace,monospace;background:#f4f4f4}pre{padding:.75rem;overflow:auto}nav a{margin-right:1rem}`;

/** The only inline style is allowed by its hash, so the CSP needs no 'unsafe-inline'. */
const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

export const HTML_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src 'sha256-${STYLE_HASH}'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and attribute values. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A complete page; `bodyHtml` must already be escaped where it carries data. */
export function page(title: string, bodyHtml: string, lang = 'en'): string {
  return `<!doctype html>
<html lang="${esc(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body><nav><a href="/">Search</a><a href="/api-docs">API</a><a href="/impressum">Impressum</a><a href="/datenschutz">Datenschutz</a></nav>
${bodyHtml}
</body></html>`;
}

export function sendHtml(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return reply.code(status).headers(HTML_SECURITY_HEADERS).send(html);
}

/** What a reader who followed a broken link sees: a page saying so, with the way back (not the API's JSON). */
export const NOT_FOUND_HTML = page(
  'Page not found · News corpus search',
  '<h1>Page not found</h1><p>There is no page at this address. It may have been mistyped or moved.</p>' +
    '<p><a href="/">Search the news corpus</a> or read the <a href="/api-docs">API reference</a>.</p>',
);
