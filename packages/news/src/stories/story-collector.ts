import { clusterStories, type Stories } from './cluster.ts';
import { createSignScratch, signText, SIGNATURE_SLOTS } from './signature.ts';
import { SignThread } from './sign-thread.ts';

/** Text signed on the reading thread before a signing thread is started: small builds never start one. */
const INLINE_BYTES = 8 << 20;

/** One crawl year's articles in doc_ix order: the story of each, numbered across the release. */
export interface YearStories {
  readonly year: string;
  /** Release number of this year's doc_ix 0 (articles of earlier years come first). */
  readonly base: number;
  readonly exact: Uint32Array;
  readonly near: Uint32Array;
}

/**
 * Collects what story clustering needs while the builder reads (text hash and MinHash signature, 138 bytes per
 * article), in input order, and clusters once every article is known. Articles are numbered across the release
 * in (year, doc_ix) order, doc_ix being (month, input order) within the year, exactly as the builder numbers them.
 */
export class StoryCollector {
  private count = 0;
  private months = new Uint32Array(1024); // year × 16 + month
  private local = new Uint32Array(1024); // index within its month, in input order
  private hashes = new Uint32Array(2048);
  private signatures = new Uint16Array(1024 * SIGNATURE_SLOTS);
  private signed = new Uint8Array(1024);
  private readonly perMonth = new Map<number, number>();
  /** Started once the text signed inline passes INLINE_BYTES: a thread costs ~0.3 s to start (tsx, imports). */
  private thread: SignThread | undefined;
  private inlineBytes = 0;
  private readonly scratch = createSignScratch();

  /**
   * Adds one article: its crawl year and month, its text's xxHash64 (unsigned decimal) and UTF-8 bytes. Returns a
   * promise only when the signing thread is behind: await it before adding more.
   */
  add(year: string, month: number, textXxhash64: string, textBytes: Uint8Array): Promise<void> | undefined {
    if (this.count === this.months.length) this.grow();
    const i = this.count++;
    const key = Number(year) * 16 + month;
    const local = this.perMonth.get(key) ?? 0;
    this.perMonth.set(key, local + 1);
    this.months[i] = key;
    this.local[i] = local;
    const hash = BigInt(textXxhash64);
    this.hashes[2 * i] = Number(hash >> 32n);
    this.hashes[2 * i + 1] = Number(hash & 0xffffffffn);
    if (this.thread === undefined && this.inlineBytes < INLINE_BYTES) {
      this.inlineBytes += textBytes.length;
      this.signed[i] = signText(textBytes, this.signatures, i * SIGNATURE_SLOTS, this.scratch) ? 1 : 0;
      return undefined;
    }
    if (this.thread === undefined) {
      // The thread numbers its texts from 0: they are this collector's articles from `from` on.
      const from = i;
      this.thread = new SignThread((first, signatures, signed) => {
        this.signatures.set(signatures, (from + first) * SIGNATURE_SLOTS);
        this.signed.set(signed, from + first);
      });
    }
    return this.thread.add(textBytes);
  }

  /** Stops the signing thread (after a failed build; finish stops it too). */
  close(): void {
    this.thread?.close();
  }

  /** Clusters every article added; returns each year's stories in doc_ix order, years in order. */
  async finish(): Promise<YearStories[]> {
    try {
      await this.thread?.finish();
    } finally {
      this.thread?.close();
    }
    const n = this.count;
    // Release number of each (year, month)'s first article: years in order, months in order within a year.
    const monthBase = new Map<number, number>();
    const yearBase = new Map<number, number>();
    let next = 0;
    for (const key of [...this.perMonth.keys()].sort((a, b) => a - b)) {
      const year = Math.floor(key / 16);
      if (!yearBase.has(year)) yearBase.set(year, next);
      monthBase.set(key, next);
      next += this.perMonth.get(key) as number;
    }
    const order = new Uint32Array(n); // release number of arrival i
    for (let i = 0; i < n; i++)
      order[i] = (monthBase.get(this.months[i] as number) as number) + (this.local[i] as number);
    const textHashes = new Uint32Array(2 * n);
    const signatures = new Uint16Array(n * SIGNATURE_SLOTS);
    const signed = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const r = order[i] as number;
      textHashes[2 * r] = this.hashes[2 * i] as number;
      textHashes[2 * r + 1] = this.hashes[2 * i + 1] as number;
      signatures.set(this.signatures.subarray(i * SIGNATURE_SLOTS, (i + 1) * SIGNATURE_SLOTS), r * SIGNATURE_SLOTS);
      signed[r] = this.signed[i] as number;
    }
    const stories: Stories = clusterStories({ count: n, textHashes, signatures, signed });
    const years = [...yearBase.keys()].sort((a, b) => a - b);
    return years.map((year, y) => {
      const base = yearBase.get(year) as number;
      const end = y + 1 < years.length ? (yearBase.get(years[y + 1] as number) as number) : n;
      return { year: String(year), base, exact: stories.exact.slice(base, end), near: stories.near.slice(base, end) };
    });
  }

  private grow(): void {
    // Grown before the article is queued, so a batch signed later always fits.
    const size = this.months.length * 2;
    const grown = <T extends Uint32Array | Uint16Array | Uint8Array>(a: T, make: (n: number) => T, per = 1): T => {
      const b = make(size * per);
      b.set(a);
      return b;
    };
    this.months = grown(this.months, (k) => new Uint32Array(k));
    this.local = grown(this.local, (k) => new Uint32Array(k));
    this.hashes = grown(this.hashes, (k) => new Uint32Array(k), 2);
    this.signatures = grown(this.signatures, (k) => new Uint16Array(k), SIGNATURE_SLOTS);
    this.signed = grown(this.signed, (k) => new Uint8Array(k));
  }
}
