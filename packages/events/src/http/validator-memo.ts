// The validators of recent 200 answers, per reader and URL, so that a re-poll whose If-None-Match still matches is
// answered 304 before the answer is built again. Sound for the same reason as the response cache: an answer
// changes only with a committed write (the generation) or with the clock (bounded by the same TTL).
import { isConditional, isNotModified, notModifiedHeaders } from './conditional.ts';
import { RecentMap } from './recent-map.ts';

type Headers = Record<string, string | number>;
// The 304 headers are made from the 200's on the first match: most remembered answers are never re-polled.
interface Remembered {
  readonly gen: number;
  readonly expires: number;
  readonly etag: string;
  readonly lastModified?: number;
  readonly headers: Headers;
  notModified?: Headers;
}
const MAX_ENTRIES = 5000;

/** Bounded by a `RecentMap` (O(1) per answer: a one-Map FIFO eviction cost ~12 µs per by-id answer). */
export class ValidatorMemo {
  readonly #entries = new RecentMap<string, Remembered>(MAX_ENTRIES);

  constructor(
    private readonly generation: { readonly value: number },
    private readonly ttlMs: number,
    private readonly clock: () => number,
  ) {}

  /**
   * Keeps the validators of an answer built under write generation `gen`. The generation is not read again here
   * (on SQLite that is a query): an entry of a generation already past is never matched by `notModified`.
   * An answer already remembered with the same tag in its generation keeps its entry, so a hot URL costs a lookup.
   */
  remember(key: string, gen: number, headers: Headers, lastModified?: number): void {
    const etag = headers.ETag;
    if (this.ttlMs <= 0 || typeof etag !== 'string') return;
    const now = this.clock();
    const known = this.#entries.get(key);
    // A slower build from an older generation never replaces what a newer one remembered.
    if (known !== undefined && known.expires > now && (known.gen > gen || (known.gen === gen && known.etag === etag)))
      return;
    this.#entries.set(key, { gen, expires: now + this.ttlMs, etag, lastModified, headers });
  }

  /** The 304 headers when the request's validators match what this URL answered in the current generation. */
  notModified(
    key: string,
    reqHeaders: { 'if-none-match'?: string; 'if-modified-since'?: string },
  ): Headers | undefined {
    if (!isConditional(reqHeaders)) return undefined;
    const r = this.#entries.get(key);
    if (r === undefined || r.expires <= this.clock() || !isNotModified(reqHeaders, r.etag, r.lastModified))
      return undefined;
    // The generation last: on SQLite reading it is a query, needed only when everything else matches.
    return r.gen === this.generation.value ? (r.notModified ??= notModifiedHeaders(r.headers)) : undefined;
  }
}
