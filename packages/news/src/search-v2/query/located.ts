/**
 * Terms evaluated from their located occurrences instead of a byte search of each candidate's text (DESIGN.md,
 * "Query language", step 4). A term's occurrences in a shard are its rank intervals; `locate` gives each one's
 * article and offset, so an article's hits of a located term are known without reading the article (only the word
 * rules look at a few bytes around each). Drivers are located anyway to find the candidates; another term is located
 * when that costs less than searching its spellings in the candidates' text (`cheaperToLocate`).
 */
import type { ShardKind, ShardReader } from '../../shard/index.ts';
import type { TermNode } from './ast.ts';
import type { Hit } from './article-text.ts';
import type { ShardTerm } from './plan.ts';
import { sortPositions } from './radix-sort.ts';

/** How step 4 finds a term's hits: by estimated cost, or forced (tests check that every way gives one answer). */
export type EvaluationPath = 'auto' | 'text' | 'located';

/**
 * Estimated costs in ns, measured on the real corpora (SA kind in memory; BENCHMARKS.md, "News article search"):
 * locating an occurrence is copying its suffix-array entry, its share of one integer sort and of the walk to its
 * article, ~10–30 ns (it was ~250–300 ns as a `locate` per occurrence, an object each and a binary search of the
 * article starts); a candidate's byte search ~0.8 ns per byte and spelling, `indexOf` calls per article and per
 * occurrence found included. The compressed kind's locate walk ~15–20 µs, and its text a block decode (as
 * collocations/filtered-frequency.ts measured). Only speed depends on them: both ways give one answer.
 */
const COSTS = {
  locate: { sa: 30, compressed: 20_000 },
  readByte: { sa: 0, compressed: 2 },
  scanByte: 0.8,
} as const;

/**
 * Occurrences kept as hits per request, all shards and terms together (8 bytes each, off the JS heap): past it the
 * remaining terms are searched in the text, as before located hits existed. Bounds the memory of 16 concurrent heavy
 * searches (BENCHMARKS.md): at 500,000 hits kept in per-article arrays the worker grew by 159 MiB.
 */
export const LOCATED_HITS_MAX = 100_000;

/** Offsets are packed with the spelling's index, so one numeric sort orders an article's hits as `hitsIn` does. */
const SPELLINGS_MAX = 4096;

/** Whether locating a term's `ranks` occurrences costs less than searching its spellings in `bytes` of text. */
export function cheaperToLocate(kind: ShardKind, ranks: number, bytes: number, spellings: number): boolean {
  return ranks * COSTS.locate[kind] <= bytes * (COSTS.readByte[kind] + spellings * COSTS.scanByte);
}

/** Whether a term's hits can come from its located occurrences (a `*` phrase is decided by its pattern in the text). */
export function locatable(t: ShardTerm): boolean {
  return !t.probe.term.wildcard_word && t.found.length <= SPELLINGS_MAX;
}

/**
 * One term's located occurrences in one shard (the word rules not yet applied): their text positions in one typed
 * array, sorted once, so an article's hits are a binary search away and its articles one walk. Off the JS heap:
 * per-article arrays in a map were most of a NEAR query's garbage-collection time (they survive the scavenges).
 */
export class LocatedTerm {
  /** Text positions in the order added; `#runs` says which spelling each run of them is. */
  readonly #positions: Float64Array | Uint32Array;
  readonly #lengths: readonly number[];
  /** [from, to, spelling] per `addRange`. */
  readonly #runs: number[] = [];
  #count = 0;
  /**
   * Sorted keys: the positions themselves when one spelling occurs (32-bit integers, radix-sorted: radix-sort.ts),
   * else each position × SPELLINGS_MAX + its spelling (a comparison sort: case variants, rarer).
   */
  #keys: Float64Array | Uint32Array | undefined;
  #scale = 1;
  #spelling = 0;

  constructor(
    readonly term: TermNode,
    t: ShardTerm,
    private readonly reader: ShardReader,
  ) {
    this.#positions = reader.stats.textBytes <= 2 ** 32 ? new Uint32Array(t.size) : new Float64Array(t.size);
    this.#lengths = t.found.map((iv) => iv.bytes.length);
  }

  /**
   * Records the occurrences at ranks [lo, hi) of spelling `spelling` (index into the term's intervals): their text
   * positions only (`positionsInto`), no article lookup per occurrence; `docs` finds the articles once sorted.
   */
  addRange(lo: number, hi: number, spelling: number): void {
    this.reader.positionsInto(lo, hi, this.#positions, this.#count);
    this.#runs.push(this.#count, this.#count + hi - lo, spelling);
    this.#count += hi - lo;
    this.#keys = undefined;
  }

  #sortedKeys(): Float64Array | Uint32Array {
    if (this.#keys !== undefined) return this.#keys;
    const positions = this.#positions.subarray(0, this.#count);
    const spellings = new Set<number>();
    for (let r = 2; r < this.#runs.length; r += 3) spellings.add(this.#runs[r] as number);
    const bound = this.reader.stats.textBytes;
    let keys: Float64Array | Uint32Array;
    if (spellings.size <= 1) {
      this.#scale = 1;
      this.#spelling = spellings.values().next().value ?? 0;
      keys = positions instanceof Uint32Array ? sortPositions(positions.slice(), bound) : positions.slice().sort();
    } else {
      this.#scale = SPELLINGS_MAX;
      keys = new Float64Array(this.#count);
      for (let r = 0; r < this.#runs.length; r += 3) {
        const [from, to, spelling] = [this.#runs[r], this.#runs[r + 1], this.#runs[r + 2]] as [number, number, number];
        for (let i = from; i < to; i++) keys[i] = (positions[i] as number) * SPELLINGS_MAX + spelling;
      }
      keys.sort();
    }
    return (this.#keys = keys);
  }

  /**
   * The articles holding an occurrence, ascending, each once: one walk over the sorted positions, the next article
   * found by a galloping search of the article starts only past the previous one's end.
   */
  docs(): number[] {
    const keys = this.#sortedKeys();
    const scale = this.#scale;
    const docCount = this.reader.stats.docCount;
    // An article's separator is its first position (the separator belongs to the article it introduces, as in locate).
    const first = (doc: number) => (doc < docCount ? this.reader.documentStart(doc) - 1 : Number.POSITIVE_INFINITY);
    const out: number[] = [];
    let end = -1;
    let doc = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as number;
      if (key < end) continue;
      const pos = Math.floor(key / scale);
      // first(doc) ≤ pos: gallop to a bound past pos, then binary search for the last article starting at or before it.
      let step = 1;
      let hi = doc + 1;
      while (hi < docCount && first(hi) <= pos) {
        doc = hi;
        hi = doc + (step *= 2);
      }
      hi = Math.min(hi, docCount) - 1;
      while (doc < hi) {
        const mid = (doc + hi + 1) >>> 1;
        if (first(mid) <= pos) doc = mid;
        else hi = mid - 1;
      }
      out.push(doc);
      end = first(doc + 1) * scale;
    }
    return out;
  }

  /** Index of the first sorted key at or past the article's start, and the key bound of its end. */
  #rangeOf(doc: number): { lo: number; end: number; keys: Float64Array | Uint32Array } {
    const keys = this.#sortedKeys();
    const scale = this.#scale;
    const start = this.reader.documentStart(doc) * scale;
    const end = start + this.reader.documentLength(doc) * scale;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[mid] as number) < start) lo = mid + 1;
      else hi = mid;
    }
    return { lo, end, keys };
  }

  /** Whether the article holds an occurrence (a binary search, no hit listed). */
  occursIn(doc: number): boolean {
    const { lo, end, keys } = this.#rangeOf(doc);
    return lo < keys.length && (keys[lo] as number) < end;
  }

  /** The article's occurrences by offset (equal offsets in spelling order, as `hitsIn` lists them). */
  hitsOf(doc: number): Hit[] {
    const { lo, end, keys } = this.#rangeOf(doc);
    const start = this.reader.documentStart(doc);
    const hits: Hit[] = [];
    for (let i = lo; i < keys.length && (keys[i] as number) < end; i++)
      hits.push(this.#hitAt(keys[i] as number, start));
    return hits;
  }

  /** `hitsOf(doc)`'s first hit and length, without listing the others (a match's page entry and facet weight). */
  firstOf(doc: number): { first: Hit | undefined; count: number } {
    const { lo, end, keys } = this.#rangeOf(doc);
    let i = lo;
    while (i < keys.length && (keys[i] as number) < end) i++;
    const first = i > lo ? this.#hitAt(keys[lo] as number, this.reader.documentStart(doc)) : undefined;
    return { first, count: i - lo };
  }

  #hitAt(key: number, start: number): Hit {
    const scale = this.#scale;
    const spelling = scale === 1 ? this.#spelling : key % scale;
    const pos = (key - (scale === 1 ? 0 : spelling)) / scale;
    return { at: pos - start, length: this.#lengths[spelling] as number };
  }
}
