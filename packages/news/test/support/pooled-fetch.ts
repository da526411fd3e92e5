/**
 * `fetch` for test helpers that tolerates a stale pooled connection. A test that computes for a long time without
 * yielding (a brute-force scan of the corpora) keeps Node from reading the FIN of a keep-alive socket the server
 * closed meanwhile (after its 65 s idle timeout); the next request may reuse that socket and fail before the server
 * sees it. A full run lost one request so ("fetch failed", no cause kept) while the same gateway answered the tests
 * before and after it. A network-level failure (fetch's TypeError) is therefore sent once more after 50 ms, on a new
 * connection; a server that is really gone fails again and the error stands. An HTTP answer, whatever its status,
 * is returned as it is.
 */
export async function pooledFetch(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    await new Promise((r) => setTimeout(r, 50));
    return fetch(url, init);
  }
}
