import { RecentMap } from './recent-map.ts';
import { SharedBuilds, type Build } from './shared-builds.ts';

/** An answer as kept: encoded once, so a hit costs a map lookup and a socket write. */
export interface CachedResponse {
  readonly gen: number;
  readonly expires: number;
  readonly status: number;
  readonly headers: Record<string, string | number>;
  readonly payload: Buffer;
  readonly lastModified?: number;
  /** The 304 headers of this answer, made on the first conditional hit. */
  notModified?: Record<string, string | number>;
}

/** The parts of a request the cache looks at (a Fastify request has them). */
export interface CacheableRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: {
    readonly authorization?: string;
    readonly origin?: string;
    readonly [name: string]: string | string[] | undefined;
  };
}

export interface ResponseCacheOptions {
  /** Anonymous GET answers are kept this long (0 disables the cache). */
  readonly ttlMs: number;
  readonly clock: () => number;
  /** Bumped by every committed write; an answer from an older generation is never served. */
  readonly generation: { readonly value: number };
  readonly maxEntries?: number;
}

/**
 * The response cache of anonymous GETs, like the plugin's per-user response cache, with in-flight de-duplication:
 * identical anonymous GETs arriving while one builds the answer wait for that one instead of all building it when an
 * entry expires under load. The key holds the whole URL (filters, `_fields`…), the CORS origin and `X-TEC-EEA` (it
 * decides whether a `tec/v1` route answers at all).
 */
export class ResponseCache {
  private readonly entries: RecentMap<string, CachedResponse>;
  private readonly inflight = new SharedBuilds<CachedResponse>();
  // The write generation each request started under, and the build whose waiters its answer settles.
  private readonly startGens = new WeakMap<CacheableRequest, number>();
  private readonly builds = new WeakMap<CacheableRequest, Build<CachedResponse>>();

  constructor(private readonly opts: ResponseCacheOptions) {
    this.entries = new RecentMap(opts.maxEntries ?? 5000);
  }

  /** The key of a request the cache may answer and keep: an anonymous GET while the cache is on. */
  keyOf(req: CacheableRequest): string | undefined {
    if (req.method !== 'GET' || this.opts.ttlMs <= 0 || req.headers.authorization !== undefined) return undefined;
    return `${req.headers.origin ?? ''}|${req.headers['x-tec-eea'] ?? ''}|${req.url}`;
  }

  /** The write generation a GET or HEAD started under (validators remembered for it are tied to it). */
  startGeneration(req: CacheableRequest): number | undefined {
    return this.startGens.get(req);
  }

  /**
   * At the start of a request: a fresh kept answer, or the answer of the same build under way; otherwise undefined,
   * and the request builds its own (when it is the first of its key, waiters will get its answer from `keep`).
   * Every request that `open` let through must `close` when its build is over, whatever happened.
   */
  async open(req: CacheableRequest, gen: number, now: number): Promise<CachedResponse | undefined> {
    if (req.method === 'GET' || req.method === 'HEAD') this.startGens.set(req, gen);
    const key = this.keyOf(req);
    if (key === undefined) return undefined;
    const hit = this.entries.get(key);
    if (hit && hit.gen === gen && hit.expires > now) return hit;
    const joined = await this.inflight.join(key, gen);
    if ('shared' in joined) return joined.shared;
    if (joined.own) this.builds.set(req, joined.own);
    return undefined;
  }

  /** The build is over: waiters that got no answer (an error, an answer not kept) build their own. */
  close(req: CacheableRequest): void {
    const own = this.builds.get(req);
    const key = this.keyOf(req);
    if (own !== undefined && key !== undefined) this.inflight.end(key, own);
  }

  /**
   * Keeps a 200 answer of a cacheable request and hands it to the requests waiting for it; returns the entry to reply
   * with, or undefined when the request is not cacheable. An answer read before a write that committed meanwhile may
   * not show it: it is handed to its waiters (same generation) but not kept.
   */
  keep(
    req: CacheableRequest,
    status: number,
    headers: Record<string, string | number>,
    payload: string | Buffer,
    lastModified?: number,
  ): CachedResponse | undefined {
    const key = this.keyOf(req);
    if (status !== 200 || key === undefined) return undefined;
    const gen = this.startGens.get(req) ?? this.opts.generation.value;
    const entry: CachedResponse = {
      gen,
      expires: this.opts.clock() + this.opts.ttlMs,
      status,
      headers,
      payload: Buffer.from(payload),
      lastModified,
    };
    if (gen === this.opts.generation.value) this.entries.set(key, entry);
    this.builds.get(req)?.settle(entry);
    return entry;
  }
}
