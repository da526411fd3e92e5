// The validators of recent 200 answers, per reader and URL, so that a re-poll whose If-None-Match still matches is
// answered 304 before the answer is built again. Sound for the same reason as the response cache: an answer
// changes only with a committed write (the generation) or with the clock (bounded by the same TTL).
import { isNotModified, notModifiedHeaders } from './conditional.ts';

interface Remembered { gen: number; expires: number; etag: string; lastModified?: number; headers: Record<string, string | number> }
const MAX_ENTRIES = 5000;

export class ValidatorMemo {
  readonly #entries = new Map<string, Remembered>();

  constructor(private readonly generation: { readonly value: number }, private readonly ttlMs: number, private readonly clock: () => number) {}

  /** Keeps the validators of an answer built under write generation `gen` (dropped if a write committed meanwhile). */
  remember(key: string, gen: number, headers: Record<string, string | number>, lastModified?: number): void {
    if (this.ttlMs <= 0 || gen !== this.generation.value || typeof headers.ETag !== 'string') return;
    if (this.#entries.size >= MAX_ENTRIES && !this.#entries.has(key)) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { gen, expires: this.clock() + this.ttlMs, etag: headers.ETag, lastModified, headers });
  }

  /** The 304 headers when the request's validators match what this URL answered in the current generation. */
  notModified(key: string, reqHeaders: { 'if-none-match'?: string; 'if-modified-since'?: string }): Record<string, string | number> | undefined {
    if (reqHeaders['if-none-match'] === undefined && reqHeaders['if-modified-since'] === undefined) return undefined;
    const r = this.#entries.get(key);
    if (r === undefined || r.gen !== this.generation.value || r.expires <= this.clock()) return undefined;
    return isNotModified(reqHeaders, r.etag, r.lastModified) ? notModifiedHeaders(r.headers) : undefined;
  }
}
