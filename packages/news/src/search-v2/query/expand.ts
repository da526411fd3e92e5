/**
 * What a `word*` stands for, read from the shard index itself (DESIGN.md, "Query language", wildcards): the words
 * that start with the prefix, enumerated through any ShardReader (suffix array or FM-index) by walking the sorted
 * suffixes of the prefix's rank interval one character at a time, never the articles.
 */
import type { RankInterval, ShardReader } from '../../shard/types.ts';
import { fieldReader } from './fields.ts';
import type { WorkBudget } from '../../work-budget/index.ts';
import { V2Error } from '../errors.ts';
import type { TermProbe } from './article-text.ts';
import { termsOf, type QueryNode } from './ast.ts';
import { canonicalText } from './canonical.ts';
import type { ShardPlan } from './plan.ts';
import { QUERY_LIMITS } from './limits.ts';
import type { SearchExpansion } from './types.ts';

const WORD_CHAR = /^[\p{L}\p{N}]$/u;
/** Longest word followed, in bytes: a longer run of letters (text without spaces) is listed cut at this length. */
export const EXPANSION_WORD_BYTES = 256;

/** The character that starts `bytes` (one UTF-8 sequence), or null at the text's end. */
function firstChar(bytes: Uint8Array): Uint8Array | null {
  const lead = bytes[0];
  if (lead === undefined) return null;
  const length = lead < 0x80 ? 1 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.subarray(0, Math.min(length, bytes.length));
}

/** Up to `n` bytes of the text after the first `depth` bytes of the suffix at `rank`, within its article. */
function bytesAfter(reader: ShardReader, rank: number, depth: number, n: number): Uint8Array {
  const at = reader.locate(rank);
  if (reader.readText !== undefined) {
    const end = at.pos - at.offset + reader.documentLength(at.doc);
    return reader.readText(at.pos + depth, Math.min(end, at.pos + depth + n));
  }
  return reader.documentBytes(at.doc).subarray(at.offset + depth, at.offset + depth + n);
}

/**
 * The branch of `node` (suffixes sharing its bytes) that continues with `c`: `find(node.bytes + c)`, narrowed
 * inside the node's interval where the reader can (a few probes in a small interval instead of a binary search of
 * the whole shard: most of a prefix's expansion cost over 83 shards).
 */
function branchOf(reader: ShardReader, node: ExpansionNode, next: Uint8Array): RankInterval {
  if (reader.narrow === undefined) return reader.find(next);
  let iv: RankInterval = node;
  for (let depth = node.bytes.length; depth < next.length && iv.hi > iv.lo; depth++)
    iv = reader.narrow(iv, depth, next[depth] as number);
  return iv;
}

/** A word prefix met while walking the suffixes: its bytes and their rank interval. */
interface ExpansionNode {
  readonly bytes: Uint8Array;
  readonly lo: number;
  readonly hi: number;
}

/**
 * Adds to `words` every word of the shard that starts with `prefix`, with its occurrences (the word's bytes
 * followed by a character that is not a letter or digit, wherever they start). Each distinct next character below
 * the prefix costs one `locate` and one `find`; the walk stops with 422 `query_too_complex` as soon as `words`
 * holds more than `limit` words, so its cost is bounded by the limit times the words' lengths.
 *
 * @example await expandPrefix(reader, Buffer.from('econom'), 1000, words, work) // words: economy → 41, economic → 37, …
 */
export async function expandPrefix(
  reader: ShardReader,
  prefix: Uint8Array,
  limit: number,
  words: Map<string, number>,
  work: WorkBudget,
  label: string,
): Promise<void> {
  const decoder = new TextDecoder();
  const stack: ExpansionNode[] = [{ bytes: prefix, ...reader.find(prefix) }];
  const add = (bytes: Uint8Array, n: number) => {
    const word = decoder.decode(bytes);
    words.set(word, (words.get(word) ?? 0) + n);
    if (words.size > limit) {
      throw new V2Error(
        'query_too_complex',
        `${label} stands for more than ${limit} different words in the selected years: write a longer prefix`,
        { limit },
      );
    }
  };
  while (stack.length > 0) {
    const node = stack.pop() as ExpansionNode;
    if (node.bytes.length >= prefix.length + EXPANSION_WORD_BYTES) {
      add(node.bytes, node.hi - node.lo);
      continue;
    }
    for (let r = node.lo; r < node.hi;) {
      if (work.due()) await work.pause();
      const c = firstChar(bytesAfter(reader, r, node.bytes.length, 4));
      // The suffix ends with the article (it sorts first): the word ends there.
      if (c === null) {
        add(node.bytes, 1);
        r++;
        continue;
      }
      const next = Buffer.concat([node.bytes, c]);
      const sub = branchOf(reader, node, next);
      if (WORD_CHAR.test(decoder.decode(c))) stack.push({ bytes: next, ...sub });
      else add(node.bytes, sub.hi - sub.lo);
      // Suffixes sort by bytes, so every suffix of this branch is in [r, sub.hi).
      r = Math.max(r + 1, sub.hi);
    }
  }
}

/** Words most frequent first, then in code-unit order: the order an answer lists them in. */
export function listedWords(words: ReadonlyMap<string, number>): SearchExpansion['words'] {
  return [...words]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([word, occurrences]) => ({ word, occurrences }));
}

/**
 * Every `word*` of the query (once per distinct text), expanded over the planned shards with each spelling the
 * request's `case` found; at most `QUERY_LIMITS.expansions` distinct words per term over all of them.
 */
export async function prefixExpansions(
  plans: readonly ShardPlan[],
  tree: QueryNode,
  work: WorkBudget,
): Promise<SearchExpansion[]> {
  const out = new Map<string, Map<string, number>>();
  for (const t of termsOf(tree)) {
    const label = canonicalText(t);
    if (!t.prefix || out.has(label)) continue;
    const words = new Map<string, number>();
    for (const plan of plans) {
      for (const spelling of (plan.probes.get(t) as TermProbe).spellings)
        await expandPrefix(fieldReader(plan.shard, t.field), spelling, QUERY_LIMITS.expansions, words, work, label);
    }
    out.set(label, words);
  }
  return [...out].map(([term, words]) => ({ term, words: listedWords(words) }));
}
