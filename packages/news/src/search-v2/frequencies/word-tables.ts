import { readFileSync } from 'node:fs';
import { decodeWordCounts, WordCountsFormatError, type WordCountTable } from '../../release/index.ts';
import type { ShardHandle } from '../../release/types.ts';
import { foldWord, type WordCase } from '../../words/index.ts';
import { V2Error } from '../errors.ts';

/** A shard's words under one case mode, sorted by word. */
export interface WordCounts {
  readonly words: readonly string[];
  readonly counts: Float64Array;
}

interface Loaded {
  readonly sensitive: WordCounts;
  insensitive?: WordCounts;
  /** Indexes into `words`, most frequent first, per case mode: sorted on the first top list of this shard alone. */
  byCount?: Uint32Array;
  byCountFolded?: Uint32Array;
}

/**
 * Decoded tables kept in memory up to this many words (about 60 bytes each), least recently used dropped first:
 * decoding costs tens of ms per shard (brotli and front coding), far over a frequency list's budget.
 */
const CACHE_WORDS = 2_000_000;
const cache = new Map<string, Loaded>();
let cachedWords = 0;

function rankByCount(words: readonly string[], counts: Float64Array): Uint32Array {
  const order = Uint32Array.from(words.keys());
  return order.sort((a, b) => (counts[b] ?? 0) - (counts[a] ?? 0) || a - b);
}

/** Counts of equal words under full case folding summed, sorted by folded word. */
export function foldCounts(t: WordCounts): WordCounts {
  const sums = new Map<string, number>();
  t.words.forEach((w, i) => {
    const f = foldWord(w);
    sums.set(f, (sums.get(f) ?? 0) + (t.counts[i] ?? 0));
  });
  const words = [...sums.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const counts = Float64Array.from(words, (w) => sums.get(w) ?? 0);
  return { words, counts };
}

function load(shard: ShardHandle): Loaded {
  const ref = shard.wordCounts;
  if (ref === undefined) {
    throw new V2Error(
      'word_counts_missing',
      `shard ${shard.shardId} has no word-count table (the release was built before them); rebuild the release with this version of news build`,
      { shard_id: shard.shardId },
    );
  }
  const hit = cache.get(ref.path);
  if (hit !== undefined) {
    cache.delete(ref.path);
    cache.set(ref.path, hit);
    return hit;
  }
  let table: WordCountTable;
  try {
    table = decodeWordCounts(readFileSync(ref.path), `word-count table of shard ${shard.shardId}`);
  } catch (e) {
    if (e instanceof WordCountsFormatError)
      throw new V2Error('word_counts_missing', `${e.message}; rebuild the release with this version of news build`, {
        shard_id: shard.shardId,
      });
    throw e;
  }
  // The count order is sorted only when a list of this shard alone asks for it: a merge of many shards never does.
  const loaded: Loaded = { sensitive: { words: table.words, counts: table.counts } };
  cache.set(ref.path, loaded);
  cachedWords += table.words.length;
  for (const [path, old] of cache) {
    if (cachedWords <= CACHE_WORDS || old === loaded) break;
    cache.delete(path);
    cachedWords -= old.sensitive.words.length;
  }
  return loaded;
}

/** Refuses (422, rebuild the release) before any table is read when one of `shards` has none. */
export function requireWordCounts(shards: readonly ShardHandle[]): void {
  const without = shards.find((s) => s.wordCounts === undefined);
  if (without !== undefined) load(without);
}

/** The word counts of one shard, as written or under full case folding (folded once, then kept with the table). */
export function shardWordCounts(shard: ShardHandle, wordCase: WordCase): WordCounts {
  const loaded = load(shard);
  if (wordCase === 'sensitive') return loaded.sensitive;
  loaded.insensitive ??= foldCounts(loaded.sensitive);
  return loaded.insensitive;
}

/** One shard's words most frequent first (indexes into `shardWordCounts(shard, wordCase).words`), kept once sorted. */
export function shardCountOrder(shard: ShardHandle, wordCase: WordCase): Uint32Array {
  const t = shardWordCounts(shard, wordCase);
  const loaded = load(shard);
  if (wordCase === 'sensitive') return (loaded.byCount ??= rankByCount(t.words, t.counts));
  return (loaded.byCountFolded ??= rankByCount(t.words, t.counts));
}

/** Word tokens of the shards, from the manifest (no table read). */
export const tokensOf = (shards: readonly ShardHandle[]): number =>
  shards.reduce((n, s) => n + (s.wordCounts?.tokens ?? 0), 0);

/** Words in ascending order (JS `<`, as tables store them) with their counts. */
export interface SortedCounts {
  readonly words: readonly string[];
  readonly counts: Float64Array;
}

/** Two sorted lists as one, counts of equal words added: a linear walk, no hashing. */
function mergeTwo(x: SortedCounts, y: SortedCounts): SortedCounts {
  const words: string[] = [];
  const counts = new Float64Array(x.words.length + y.words.length);
  let i = 0;
  let j = 0;
  while (i < x.words.length || j < y.words.length) {
    const a = x.words[i];
    const b = y.words[j];
    if (b === undefined || (a !== undefined && a < b)) {
      counts[words.length] = x.counts[i++] ?? 0;
      words.push(a as string);
    } else if (a === undefined || b < a) {
      counts[words.length] = y.counts[j++] ?? 0;
      words.push(b);
    } else {
      counts[words.length] = (x.counts[i++] ?? 0) + (y.counts[j++] ?? 0);
      words.push(a);
    }
  }
  return { words, counts: counts.subarray(0, words.length) };
}

/**
 * The summed counts of every word of `shards`, sorted by word: tables merged pairwise (n words over k shards cost
 * n·log k comparisons; summing into a Map cost several times more, measured in bench/frequencies.ts).
 */
export function mergedCounts(shards: readonly ShardHandle[], wordCase: WordCase): SortedCounts {
  let lists: SortedCounts[] = shards.map((s) => shardWordCounts(s, wordCase));
  if (lists.length === 0) return { words: [], counts: new Float64Array(0) };
  while (lists.length > 1) {
    const next: SortedCounts[] = [];
    for (let i = 0; i < lists.length; i += 2) {
      const x = lists[i] as SortedCounts;
      const y = lists[i + 1];
      next.push(y === undefined ? x : mergeTwo(x, y));
    }
    lists = next;
  }
  return lists[0] as SortedCounts;
}
