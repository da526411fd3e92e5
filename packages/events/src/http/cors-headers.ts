/** Headers every REST answer carries from serve_request and its hooks (never inside an `_envelope`). */
const NO_CACHE = {
  'Cache-Control': 'no-cache, must-revalidate, max-age=0, no-store, private',
  Expires: 'Wed, 11 Jan 1984 05:00:00 GMT',
};

/** The request facts CORS depends on. */
export interface CorsRequest {
  readonly method: string;
  readonly origin?: string;
}

/**
 * WordPress's fixed REST headers plus `rest_send_cors_headers`: an `Origin` is echoed with credentials allowed;
 * without one, an anonymous GET still varies on it. A logged-in answer is never cached (`rest_send_nocache_headers`).
 * @example restHeaders('http://site', { method: 'GET', origin: 'http://app' }, false)['Access-Control-Allow-Origin'] // 'http://app'
 */
export function restHeaders(home: string, req: CorsRequest, loggedIn: boolean): Record<string, string | number> {
  const headers: Record<string, string | number> = {
    'X-Robots-Tag': 'noindex',
    'X-Content-Type-Options': 'nosniff',
    Link: `<${home}/wp-json/>; rel="https://api.w.org/"`,
    'Access-Control-Expose-Headers': 'X-WP-Total, X-WP-TotalPages, Link',
    'Access-Control-Allow-Headers': 'Authorization, X-WP-Nonce, Content-Disposition, Content-MD5, Content-Type',
    ...(loggedIn ? NO_CACHE : {}),
  };
  if (req.origin) {
    Object.assign(headers, {
      'Access-Control-Allow-Origin': req.origin,
      'Access-Control-Allow-Methods': 'OPTIONS, GET, POST, PUT, PATCH, DELETE',
      'Access-Control-Allow-Credentials': 'true',
      Vary: 'Origin',
    });
  } else if (req.method === 'GET' && !loggedIn) headers.Vary = 'Origin'; // rest_send_cors_headers: the real method
  return headers;
}
