/**
 * v2 ngrams (issue 28): the distribution of the 1–3 words that follow (or precede) a phrase. Algorithm and the
 * definition of "the words after an occurrence" in search-v2/DESIGN.md, "Word continuations".
 */
import type { OpenRelease } from '../../release/types.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import type { WordCase } from '../../words/index.ts';
import type { CombineContext } from '../calls/define.ts';
import type { NgramsAnswer, NgramsRequest } from '../calls/ngrams.ts';
import { V2Error } from '../errors.ts';
import type { WireOf } from '../schema/fields.ts';
import { ANALYSIS_LIMITS } from './limits.ts';
import { tallyOccurrences, type Occurrence } from './occurrence-sample.ts';
import { edgeWord, wordsBackward, wordsForward, type EdgeWord, type WindowWord } from './occurrence-words.ts';
import type { WindowCache } from './window-cache.ts';

export type NgramsRequestWire = WireOf<typeof NgramsRequest>;
export type NgramsResult = WireOf<typeof NgramsAnswer>;

type Outcome = { readonly words: readonly string[] } | 'inside_word' | 'too_short';

const take = (ws: readonly WindowWord[]): string[] => ws.map((w) => w.word);

/** The continuation of one occurrence. */
function continuationOf(
  o: Occurrence,
  edges: Map<Uint8Array, EdgeWord | null>,
  req: { direction: 'left' | 'right'; n: number; complete: boolean; wordCase: WordCase },
  reader: Parameters<typeof wordsForward>[0],
  memo: WindowCache,
): Outcome {
  const { direction, n, complete, wordCase } = req;
  let edge = edges.get(o.spelling);
  if (edge === undefined) edges.set(o.spelling, (edge = edgeWord(o.spelling, direction)));
  if (direction === 'right') {
    if (edge === null) {
      const r = wordsForward(reader, o.article, o.pos + o.spelling.length, n, wordCase, memo);
      return r.words.length === n ? { words: take(r.words) } : 'too_short';
    }
    const want = complete ? n : n + 1;
    const r = wordsForward(reader, o.article, o.pos + edge.byteAt, want, wordCase, memo);
    const first = r.words[0];
    if (first === undefined || first.start !== 0 || first.end < edge.length || (!complete && first.end !== edge.length))
      return 'inside_word';
    if (r.words.length < want) return 'too_short';
    return { words: take(complete ? r.words : r.words.slice(1)) };
  }
  if (edge === null) {
    const r = wordsBackward(reader, o.article, o.pos, n, wordCase, memo);
    return r.words.length === n ? { words: take(r.words) } : 'too_short';
  }
  const r = wordsBackward(reader, o.article, o.pos + edge.byteAt, n + 1, wordCase, memo);
  const last = r.words.at(-1);
  if (last === undefined || last.end !== r.text.length || last.start !== r.text.length - edge.length)
    return 'inside_word';
  if (r.words.length < n + 1) return 'too_short';
  return { words: take(r.words.slice(0, -1)) };
}

/** Sorted by count (descending), then by words, cut to `limit`; the rest summed into `other`. */
function listOf(
  counts: ReadonlyMap<string, number>,
  limit: number,
): { continuations: NgramsResult['continuations']; other: number } {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const sorted = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const listed = sorted.slice(0, limit);
  const other = sorted.slice(limit).reduce((s, [, c]) => s + c, 0);
  return {
    continuations: listed.map(([k, c]) => ({ words: k.split('\u0000'), count: c, share: total === 0 ? 0 : c / total })),
    other,
  };
}

/**
 * v2 ngrams: what follows (or precedes) a phrase, grouped by the next `words` words.
 * @example (await ngrams(release, { index: 'news', query: 'oil prices', direction: 'right' })).continuations[0] // { words: ['rose'], count, share }
 */
export async function ngrams(
  release: OpenRelease,
  request: NgramsRequestWire,
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<NgramsResult> {
  if (request.query.length === 0) throw new V2Error('invalid_query', 'ngrams needs a non-empty query');
  const direction = request.direction ?? 'right';
  const complete = request.complete ?? false;
  if (complete && direction === 'left')
    throw new V2Error('invalid_query', "complete completes the phrase's last word: it needs direction right");
  const n = request.words ?? 1;
  const wordCase: WordCase = request.case === 'insensitive' ? 'insensitive' : 'sensitive';
  const counts = new Map<string, number>();
  const edges = new Map<Uint8Array, EdgeWord | null>();
  let insideWord = 0;
  let tooShort = 0;
  const bounds = {
    exactRanks: ANALYSIS_LIMITS.ngramsExactRanks,
    sampleSize: ANALYSIS_LIMITS.ngramsSampleSize,
    textOrderBytesPerDraw: ANALYSIS_LIMITS.ngramsTextOrderBytesPerDraw,
  };
  const { totals } = await tallyOccurrences(
    release,
    request,
    bounds,
    work,
    (o) => {
      const c = continuationOf(o.occurrence, edges, { direction, n, complete, wordCase }, o.shard.reader, o.memo);
      if (c === 'inside_word') insideWord += o.weight;
      else if (c === 'too_short') tooShort += o.weight;
      else {
        const key = c.words.join('\u0000');
        counts.set(key, (counts.get(key) ?? 0) + o.weight);
      }
    },
    'auto',
  );
  return {
    index_version: release.indexVersion,
    query: request.query,
    direction,
    words: n,
    complete,
    ...totals,
    inside_word: insideWord,
    too_short: tooShort,
    ...listOf(counts, request.limit ?? ANALYSIS_LIMITS.ngramsListDefault),
  };
}

/**
 * Answers of disjoint shard sets into one: counts summed per continuation. Exact when no part left a continuation
 * in its `other` that another part lists (always so when every part lists all of its continuations).
 */
export function combineNgrams(
  parts: readonly NgramsResult[],
  _ctx: CombineContext,
  body: NgramsRequestWire,
): NgramsResult {
  const first = parts[0];
  if (first === undefined) throw new Error('combineNgrams needs at least one part');
  const counts = new Map<string, number>();
  let other = 0;
  for (const p of parts) {
    other += p.other;
    for (const c of p.continuations) {
      const key = c.words.join('\u0000');
      counts.set(key, (counts.get(key) ?? 0) + c.count);
    }
  }
  const listed = listOf(counts, body.limit ?? ANALYSIS_LIMITS.ngramsListDefault);
  const listedTotal = listed.continuations.reduce((s, c) => s + c.count, 0);
  const all = listedTotal + listed.other + other;
  const sum = (f: (p: NgramsResult) => number) => parts.reduce((s, p) => s + f(p), 0);
  return {
    ...first,
    mode: parts.some((p) => p.mode === 'sampled') ? 'sampled' : 'exact',
    total_occurrences: sum((p) => p.total_occurrences),
    read_occurrences: sum((p) => p.read_occurrences),
    sampled_shards: sum((p) => p.sampled_shards),
    inside_word: sum((p) => p.inside_word),
    too_short: sum((p) => p.too_short),
    other: listed.other + other,
    continuations: listed.continuations.map((c) => ({ ...c, share: all === 0 ? 0 : c.count / all })),
  };
}
