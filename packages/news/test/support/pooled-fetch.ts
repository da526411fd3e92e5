/**
 * `fetch` for test helpers that tolerates a stale pooled connection. A test that computes for a long time without
 * yielding (a brute-force scan of the corpora) keeps Node from reading the FIN of a keep-alive socket the server
 * closed meanwhile (after its 65 s idle timeout); the next request reuses that socket and fails before the server
 * sees it ("other side closed"). That request is sent once more on a new connection. Only socket-level failures
 * are retried: an HTTP answer, whatever its status, is returned as it is.
 */
const STALE_SOCKET = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

function isStaleSocket(e: unknown): boolean {
  if (!(e instanceof TypeError)) return false;
  const cause = (e as TypeError & { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' && STALE_SOCKET.has(cause.code);
}

export async function pooledFetch(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (e) {
    if (!isStaleSocket(e)) throw e;
    return fetch(url, init);
  }
}
