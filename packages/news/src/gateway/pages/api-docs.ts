import { esc, page } from './html.ts';
import { ENDPOINTS } from './openapi.ts';
import { QUERY_LANGUAGE_HTML } from './query-language-doc.ts';
import type { JsonSchema as Schema } from '../validation/index.ts';
import type { GatewayConfig } from '../config/index.ts';

function typeName(s: Schema): string {
  if (s.anyOf !== undefined) return s.anyOf.map(typeName).join(' or ');
  if (s.type === 'array' && s.items !== undefined) return `array of ${typeName(s.items)}`;
  return s.type ?? 'any';
}

function bounds(s: Schema): string {
  if (s.anyOf !== undefined)
    return s.anyOf
      .map(bounds)
      .filter((b) => b !== '')
      .join('; ');
  const parts: string[] = [];
  if (s.minLength !== undefined) parts.push(`min length ${s.minLength}`);
  if (s.maxLength !== undefined) parts.push(`max length ${s.maxLength}`);
  if (s.pattern !== undefined) parts.push(`pattern <code>${esc(s.pattern)}</code>`);
  if (s.enum !== undefined) parts.push(`one of ${s.enum.map((v) => `<code>${esc(v)}</code>`).join(', ')}`);
  if (s.minimum !== undefined && s.maximum !== undefined) parts.push(`${s.minimum} to ${s.maximum}`);
  else if (s.minimum !== undefined) parts.push(`min ${s.minimum}`);
  else if (s.maximum !== undefined) parts.push(`max ${s.maximum}`);
  return parts.join('; ');
}

function fieldTable(schema: Schema, withDefaults: boolean): string {
  const required = new Set(schema.required ?? []);
  const rows = Object.entries(schema.properties ?? {}).map(
    ([name, s]) =>
      `<tr><td><code>${esc(name)}</code></td>` +
      `<td>${esc(typeName(s))}</td><td>${required.has(name) ? 'yes' : 'no'}</td><td>${bounds(s)}</td>` +
      (withDefaults
        ? `<td>${s.default === undefined ? '' : `<code>${esc(JSON.stringify(s.default))}</code>`}</td>`
        : '') +
      `<td>${esc(s.description ?? '')}</td></tr>`,
  );
  const head = `<tr><th>Field</th><th>Type</th><th>Required</th><th>Bounds</th>${withDefaults ? '<th>Default</th>' : ''}<th>Meaning</th></tr>`;
  return `<table>${head}${rows.join('')}</table>`;
}

/** The human-readable API reference, generated from the validating schemas, with this gateway's admission budgets. */
export function renderApiDocs(admission: GatewayConfig['admission']): string {
  const sections = ENDPOINTS.map((e) => {
    const req =
      e.request === null
        ? '<p>No request body.</p>'
        : `<h4>Request body (application/json)</h4>${fieldTable(e.request as Schema, true)}`;
    const errors = e.errors.map((x) => `<li><strong>${x.status}</strong>: ${esc(x.description)}</li>`).join('');
    return (
      `<section><h3><code>${e.method} ${esc(e.path)}</code></h3><p>${esc(e.summary)}</p>${req}` +
      `<h4>200 response</h4>${fieldTable(e.response as Schema, false)}<h4>Errors</h4><ul>${errors}</ul></section>`
    );
  }).join('\n');
  return page(
    'News corpus search: API reference',
    `<h1>API reference</h1>
<p>Interface document version 0.1.0. Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>
<h2>Conventions</h2>
<ul>
<li>Matching is byte-exact and case-sensitive on the UTF-8 text as published. Occurrences overlap.</li>
<li>Every offset and length in responses is in UTF-8 <strong>bytes</strong>; request string bounds count characters.</li>
<li>Each shard covers one crawl period and has its own rank space. <code>find</code> lists the shards whose year lies in
[year_min, year_max], in chronological order; <code>get_doc</code>'s <code>s</code> indexes that list, so send it the same query and years.</li>
<li>Validation errors answer 422 with <code>{"detail": [{"type", "loc", "msg", "input", "ctx"}]}</code> as FastAPI does
(pydantic v2 type strings). Fields the schema does not name are ignored, as FastAPI ignores them by default.</li>
<li>Calls are admitted by cost. Cheap calls (v1 count, find, get_doc, info; v2 count and find with case-sensitive,
not-whole-word queries, get_doc, metadata, info, health) are never limited or queued. Expensive calls (v2 estimate, search, timeline,
contexts, documents, occurrences, and any case-insensitive or whole-word query) count against a budget per client address:
beyond ${admission.perClient} under way at once the answer is 429 <code>{"detail", "code": "rate_limited", "limit"}</code>
with <code>Retry-After: 1</code>; at most ${admission.inFlight} expensive calls of all clients run at once, and one that cannot
start before its deadline answers 503 <code>overloaded</code> with <code>Retry-After: 1</code>.</li>
<li><code>GET /api/v2/health</code> answers 200 only when the worker serves the configured release; other v2 paths answer 503 until it does.</li>
</ul>
${QUERY_LANGUAGE_HTML}
<h2>Endpoints</h2>
${sections}`,
  );
}
