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

/** How step 4 finds a term's hits: by estimated cost, or forced (tests check that every way gives one answer). */
export type EvaluationPath = 'auto' | 'text' | 'located';

/**
 * Estimated costs in ns, measured on the real corpora (SA kind in memory; BENCHMARKS.md, "News article search",
 * h27 second pass): a `locate` with its hit recorded ~250–300 ns; a candidate's byte search ~0.8 ns per byte and
 * spelling, `indexOf` calls per article and per occurrence found included (an AND of a rare and a common word
 * searched the common one's 4,122 occurrences faster located than in the rare one's 2.8 MB of candidates). The
 * compressed kind's locate walk ~15–20 µs, and its text a block decode (as collocations/filtered-frequency.ts
 * measured). Only speed depends on them: both ways give one answer.
 */
const COSTS = {
  locate: { sa: 300, compressed: 20_000 },
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
 * One term's located occurrences in one shard (the word rules not yet applied): text positions packed with the
 * spelling's index in one typed array, sorted once, so an article's hits are a binary search away. Off the JS heap:
 * per-article arrays in a map were most of a NEAR query's garbage-collection time (they survive the scavenges).
 */
export class LocatedTerm {
  readonly #keys: Float64Array;
  readonly #lengths: readonly number[];
  #count = 0;
  #sorted = true;

  constructor(
    readonly term: TermNode,
    t: ShardTerm,
    private readonly reader: ShardReader,
  ) {
    this.#keys = new Float64Array(t.size);
    this.#lengths = t.found.map((iv) => iv.bytes.length);
  }

  /** Records an occurrence of spelling `spelling` (index into the term's intervals) at text position `pos`. */
  add(pos: number, spelling: number): void {
    this.#keys[this.#count++] = pos * SPELLINGS_MAX + spelling;
    this.#sorted = false;
  }

  /** The article's occurrences by offset (equal offsets in spelling order, as `hitsIn` lists them). */
  hitsOf(doc: number): Hit[] {
    const keys = this.#keys.subarray(0, this.#count);
    if (!this.#sorted) {
      keys.sort();
      this.#sorted = true;
    }
    const start = this.reader.documentStart(doc);
    const end = (start + this.reader.documentLength(doc)) * SPELLINGS_MAX;
    let lo = 0;
    let hi = keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((keys[mid] as number) < start * SPELLINGS_MAX) lo = mid + 1;
      else hi = mid;
    }
    const hits: Hit[] = [];
    for (let i = lo; i < keys.length && (keys[i] as number) < end; i++) {
      const spelling = (keys[i] as number) % SPELLINGS_MAX;
      const pos = ((keys[i] as number) - spelling) / SPELLINGS_MAX;
      hits.push({ at: pos - start, length: this.#lengths[spelling] as number });
    }
    return hits;
  }
}
