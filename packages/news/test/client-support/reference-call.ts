import { pooledFetch } from '../support/pooled-fetch.ts';
/**
 * A test's own reference call to the gateway. It comes from the same address as the page under test, which may have
 * the gateway's expensive calls per client under way (429 rate_limited): then it waits the Retry-After and asks
 * again, as a client should. Returns the final response.
 */
export async function referenceCall(url: string, body: unknown): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await pooledFetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 429 || attempt === 20) return res;
    await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
  }
}
