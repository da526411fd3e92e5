import { describe, expect, it } from 'vitest';
import { get, OPERATOR_ENV, useFixtureStack } from './gateway-harness.ts';
import { FIXTURE } from './gateway-fixture.ts';
import { COMPRESSION_DEFAULTS, ConfigError, parseGatewayConfig } from '../src/gateway/index.ts';
import { v1Schemas } from '../src/gateway/v1/index.ts';

const { url } = useFixtureStack(FIXTURE, 'fixture-pages', {
  GATEWAY_HF_REPO: 'example-org/news-corpus',
  GATEWAY_HF_CORPUS_REVISION: 'abc123',
  GATEWAY_LOG_RETENTION: '14 Tage',
});

describe('HTML pages', () => {
  for (const path of ['/api-docs', '/impressum', '/datenschutz']) {
    it(`${path} is text/html; charset=utf-8 with CSP, nosniff and frame denial`, async () => {
      const r = await get(url(path));
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const csp = r.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(r.headers.get('x-frame-options')).toBe('DENY');
      expect(r.headers.get('set-cookie')).toBeNull();
    });
  }

  it('/api-docs lists every request field of every v1 endpoint with its bounds, from the validating schemas', async () => {
    const html = (await get(url('/api-docs'))).text;
    for (const path of ['/api/v1/count', '/api/v1/find', '/api/v1/get_doc', '/api/v1/info'])
      expect(html).toContain(path);
    for (const field of Object.keys(v1Schemas.GetDocRequest.properties))
      expect(html).toContain(`<code>${field}</code>`);
    expect(html).toContain('max length 10000');
    expect(html).toContain('min length 1');
    expect(html).toContain('1900 to 2200');
    expect(html).toContain('1 to 10000');
    expect(html).toContain('^[a-z0-9_]+$');
  });

  it('/api-docs gives the query language grammar with examples and documents POST /api/v2/search with its fields', async () => {
    const html = (await get(url('/api-docs'))).text;
    expect(html).toContain('Query language (<code>POST /api/v2/search</code>)');
    for (const piece of [
      'near    = term [ "NEAR/" n term ]',
      'climate NEAR/10 protest',
      'econom*',
      'query_too_complex',
      'missing closing parenthesis for the one at position 9',
    ]) {
      expect(html).toContain(piece);
    }
    for (const field of ['query_tree', 'page_size', 'cursor', 'next_cursor', 'expansions'])
      expect(html).toContain(`<code>${field}</code>`);
    const spec = (await get(url('/openapi.json'))).body;
    expect(
      Object.keys(spec.paths['/api/v2/search'].post.requestBody.content['application/json'].schema.properties),
    ).toContain('query_tree');
  });

  it('/openapi.json is an OpenAPI document with the same request schemas', async () => {
    const r = await get(url('/openapi.json'));
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body.openapi).toBe('3.1.0');
    const schema = r.body.paths['/api/v1/get_doc'].post.requestBody.content['application/json'].schema;
    expect(schema.required).toEqual(['query', 'index', 's', 'rank']);
    expect(schema.properties.max_ctx_len).toMatchObject({ minimum: 1, maximum: 10000, default: 1000 });
  });

  it('/impressum shows the operator settings, escaped', async () => {
    const html = (await get(url('/impressum'))).text;
    expect(html).toContain('Beispiel &lt;Betrieb&gt; GmbH');
    expect(html).toContain('Musterstraße 1<br>10115 Berlin');
    expect(html).toContain('kontakt@example.org');
    expect(html).not.toContain('<Betrieb>');
  });

  it('/datenschutz states what is logged, the retention and that no cookies are set', async () => {
    const html = (await get(url('/datenschutz'))).text;
    expect(html).toContain('keine</strong> IP-Adressen');
    expect(html).toContain('14 Tage');
    expect(html).toContain('keine Cookies');
  });

  it('serves the browser client at / as text/html with the same security headers', async () => {
    const r = await fetch(url('/'));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(r.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers 405 with Allow for a known path and the wrong method, as FastAPI does', async () => {
    const r = await get(url('/api/v1/count'));
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('POST');
    expect(r.body).toEqual({ detail: 'Method Not Allowed' });
    expect((await get(url('/api/v1/nothing-here'))).body).toEqual({ detail: 'Not Found' });
  });

  it('answers an unknown page address with an HTML 404 page leading back to the search (API paths keep JSON)', async () => {
    for (const path of ['/nope', '/search/old-link?q=x']) {
      const r = await get(url(path));
      expect(r.status).toBe(404);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(r.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(r.text).toContain('<h1>Page not found</h1>');
      expect(r.text).toContain('<a href="/">Search the news corpus</a>');
    }
    const api = await get(url('/api/v2x/nope'));
    expect(api.status).toBe(404);
    expect(api.body).toEqual({ detail: 'Not Found' });
  });
});

describe('GET /api/v1/info', () => {
  it('reports what the worker has loaded and a pinned hub example for the configured repository', async () => {
    const r = await get(url('/api/v1/info'));
    expect(r.status).toBe(200);
    const b = r.body;
    expect(b).toMatchObject({
      article_count: String(FIXTURE.length),
      date_range: '2019-01 to 2021-07',
      available_indexes: ['news'],
      api_docs: '/api-docs',
      hub_repo_url: 'https://huggingface.co/datasets/example-org/news-corpus',
    });
    for (const k of ['name', 'description', 'article_count', 'date_range', 'hub_repo_url', 'api_docs'])
      expect(typeof b[k]).toBe('string');
    for (const k of ['repo', 'repo_url', 'viewer_url_template', 'python_example', 'note'])
      expect(typeof b.hub_retrieval[k]).toBe('string');
    expect(b.hub_retrieval.repo).toBe('example-org/news-corpus');
    // info hands out the hub retrieval recipe (src/hub/recipe.ts), addressed to this gateway and pinned as configured.
    expect(b.hub_retrieval.python_example).toContain('REVISION = "abc123"');
    expect(b.hub_retrieval.python_example).toContain('REPO = "example-org/news-corpus"');
    expect(b.hub_retrieval.python_example).toContain(`API = "${url('')}"`);
    expect(typeof b.latency_ms).toBe('number');
  });
});

describe('gateway configuration', () => {
  const base = { GATEWAY_INDEX_VERSION: 'v1', GATEWAY_WORKER_URL: 'http://127.0.0.1:9', ...OPERATOR_ENV };

  it('is frozen, with defaults for optional settings', () => {
    const c = parseGatewayConfig(base);
    expect(Object.isFrozen(c)).toBe(true);
    expect(c).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      environment: 'production',
      workerUrl: 'http://127.0.0.1:9',
    });
    expect(c.hub).toEqual({ repo: null, revision: null, endpoint: 'https://huggingface.co' });
    expect(c.compression).toEqual({ ...COMPRESSION_DEFAULTS, enabled: true });
    expect(parseGatewayConfig({ ...base, GATEWAY_COMPRESSION: 'off' }).compression.enabled).toBe(false);
  });

  it('refuses to start without the release identity or worker, naming what to set', () => {
    expect(() => parseGatewayConfig({ ...OPERATOR_ENV })).toThrowError(
      /GATEWAY_INDEX_VERSION[\s\S]*GATEWAY_WORKER_URL/,
    );
  });

  it('refuses a production start without operator details, but allows development without them', () => {
    const { GATEWAY_INDEX_VERSION, GATEWAY_WORKER_URL } = base;
    expect(() => parseGatewayConfig({ GATEWAY_INDEX_VERSION, GATEWAY_WORKER_URL })).toThrowError(
      /GATEWAY_OPERATOR_NAME/,
    );
    expect(
      parseGatewayConfig({ GATEWAY_INDEX_VERSION, GATEWAY_WORKER_URL, GATEWAY_ENVIRONMENT: 'development' }).operator,
    ).toBeNull();
  });

  it('refuses bad values with the variable name', () => {
    const bad: [Record<string, string>, RegExp][] = [
      [{ GATEWAY_PORT: '70000' }, /GATEWAY_PORT/],
      [{ GATEWAY_WORKER_URL: 'ftp://x' }, /GATEWAY_WORKER_URL/],
      [{ GATEWAY_WORKER_URL: 'http://a:1,ftp://b:2' }, /GATEWAY_WORKER_URL/],
      [{ GATEWAY_TOPOLOGY: '/nonexistent/topology.json' }, /either GATEWAY_TOPOLOGY or GATEWAY_WORKER_URL/],
      [{ GATEWAY_HF_REPO: 'not a repo' }, /GATEWAY_HF_REPO/],
      [{ GATEWAY_OPERATOR_EMAIL: 'nobody' }, /GATEWAY_OPERATOR_EMAIL/],
      [{ GATEWAY_ENVIRONMENT: 'staging' }, /GATEWAY_ENVIRONMENT/],
      [{ GATEWAY_COMPRESSION: 'yes' }, /GATEWAY_COMPRESSION/],
    ];
    for (const [env, message] of bad) {
      expect(() => parseGatewayConfig({ ...base, ...env })).toThrowError(ConfigError);
      expect(() => parseGatewayConfig({ ...base, ...env })).toThrowError(message);
    }
  });

  it('lets --port override GATEWAY_PORT', () => {
    expect(parseGatewayConfig({ ...base, GATEWAY_PORT: '1234' }, { port: 4321 }).port).toBe(4321);
  });
});
