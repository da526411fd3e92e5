/**
 * v2 collocations (issue 28): the words within a window of a query's occurrences, with their frequency in the
 * windows, in the subcorpus, and association scores. Algorithm, window definition and formulas: search-v2/DESIGN.md,
 * "Collocations".
 */
import type { OpenRelease } from '../../release/types.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import type { WordCase } from '../../words/index.ts';
import type { CollocationsAnswer, CollocationsRequest } from '../calls/collocations.ts';
import type { CombineContext } from '../calls/define.ts';
import { V2Error } from '../errors.ts';
import { hasNoFilter } from '../filters.ts';
import type { WireOf } from '../schema/fields.ts';
import { ANALYSIS_LIMITS } from '../ngrams/limits.ts';
import { tallyOccurrences, type Occurrence } from '../ngrams/occurrence-sample.ts';
import { edgeWord, wordsBackward, wordsForward, type EdgeWord } from '../ngrams/occurrence-words.ts';
import type { WindowCache } from '../ngrams/window-cache.ts';
import type { ShardReader } from '../../shard/types.ts';
import { scoresOf } from './scores.ts';
import { filteredFrequencies } from './filtered-frequency.ts';
import { subcorpusWords, wordFrequency } from './subcorpus.ts';
import { tableSubcorpus } from './table-subcorpus.ts';

export type CollocationsRequestWire = WireOf<typeof CollocationsRequest>;
export type CollocationsResult = WireOf<typeof CollocationsAnswer>;
type Collocate = CollocationsResult['collocates'][number];

interface Tally {
  count: number;
  readonly positions: number[];
  example: { readonly shard_id: string; readonly rank: number };
}

/**
 * The words of one occurrence's window, left ones first, each with its window position index (0 … left+right−1).
 * The words the phrase itself touches (its edge words, or the longer words it ends or begins inside) are not in it.
 */
function windowOf(
  reader: ShardReader,
  o: Occurrence,
  left: number,
  right: number,
  edges: Map<Uint8Array, readonly [EdgeWord | null, EdgeWord | null]>,
  wordCase: WordCase,
  memo: WindowCache,
): { word: string; at: number }[] {
  let e = edges.get(o.spelling);
  if (e === undefined) edges.set(o.spelling, (e = [edgeWord(o.spelling, 'left'), edgeWord(o.spelling, 'right')]));
  const [first, last] = e;
  const out: { word: string; at: number }[] = [];
  if (left > 0) {
    const ws =
      first === null
        ? wordsBackward(reader, o.article, o.pos, left, wordCase, memo).words
        : wordsBackward(reader, o.article, o.pos + first.byteAt, left + 1, wordCase, memo).words.slice(0, -1);
    ws.forEach((w, i) => out.push({ word: w.word, at: left - ws.length + i }));
  }
  if (right > 0) {
    const ws =
      last === null
        ? wordsForward(reader, o.article, o.pos + o.spelling.length, right, wordCase, memo).words
        : wordsForward(reader, o.article, o.pos + last.byteAt, right + 1, wordCase, memo).words.slice(1);
    ws.forEach((w, i) => out.push({ word: w.word, at: left + i }));
  }
  return out;
}

const SORTS = {
  log_dice: (c: Collocate) => c.log_dice,
  mi: (c: Collocate) => c.mi,
  log_likelihood: (c: Collocate) => c.log_likelihood,
  frequency: (c: Collocate) => c.window_frequency,
} as const;

/** Scores from the frequencies, sorted by the request's measure (then window frequency, then word), cut to `limit`. */
function ranked(
  items: readonly Omit<Collocate, 'log_dice' | 'mi' | 'log_likelihood'>[],
  fx: number,
  n: number,
  request: CollocationsRequestWire,
): Collocate[] {
  const key = SORTS[request.sort_by ?? 'log_dice'];
  return items
    .map((c) => ({
      ...c,
      ...scoresOf({ fxy: c.window_frequency, fx, fy: Math.max(c.frequency.value, c.window_frequency), n }),
    }))
    .sort(
      (a, b) =>
        key(b) - key(a) || b.window_frequency - a.window_frequency || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0),
    )
    .slice(0, request.limit ?? ANALYSIS_LIMITS.collocatesDefault);
}

/**
 * v2 collocations of a query.
 * @example (await collocations(release, { index: 'news', query: 'oil prices' })).collocates[0] // { word: 'crude', log_dice, … }
 */
export async function collocations(
  release: OpenRelease,
  request: CollocationsRequestWire,
  work: WorkBudget = WorkBudget.unlimited(),
): Promise<CollocationsResult> {
  if (request.query.length === 0) throw new V2Error('invalid_query', 'collocations needs a non-empty query');
  const left = request.left ?? ANALYSIS_LIMITS.windowDefault;
  const right = request.right ?? ANALYSIS_LIMITS.windowDefault;
  const wordCase: WordCase = request.case === 'insensitive' ? 'insensitive' : 'sensitive';
  const tallies = new Map<string, Tally>();
  const edges = new Map<Uint8Array, readonly [EdgeWord | null, EdgeWord | null]>();
  const bounds = {
    exactRanks: ANALYSIS_LIMITS.collocationsExactRanks,
    sampleSize: ANALYSIS_LIMITS.collocationsSampleSize,
  };
  const { totals, counted: fx } = await tallyOccurrences(release, request, bounds, work, (o) => {
    // Read on the `located` path (tallyOccurrences' default): every occurrence has its rank, the example's.
    const rank = o.occurrence.rank;
    if (rank === undefined) throw new Error('collocations reads located occurrences only');
    for (const { word, at } of windowOf(o.shard.reader, o.occurrence, left, right, edges, wordCase, o.memo)) {
      let t = tallies.get(word);
      if (t === undefined)
        tallies.set(
          word,
          (t = {
            count: 0,
            positions: new Array<number>(left + right).fill(0),
            example: { shard_id: o.shard.shardId, rank },
          }),
        );
      // The example is the word's lowest rank in the first shard that has it: occurrences come in text order.
      if (t.example.shard_id === o.shard.shardId && rank < t.example.rank)
        t.example = { shard_id: o.shard.shardId, rank };
      t.count += o.weight;
      t.positions[at] = (t.positions[at] ?? 0) + o.weight;
    }
  });
  const limit = request.limit ?? ANALYSIS_LIMITS.collocatesDefault;
  const candidates = [...tallies]
    .filter(([, t]) => t.count >= (request.min_frequency ?? 2))
    .sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1))
    .slice(0, limit * ANALYSIS_LIMITS.candidatesPerListed);
  const tables = candidates.length === 0 ? null : tableSubcorpus(release, request);
  const filtered =
    tables === null && candidates.length > 0 && !hasNoFilter(request)
      ? await filteredFrequencies(
          release,
          request,
          candidates.map(([word]) => word),
          work,
        )
      : null;
  const items = [];
  for (const [word, t] of candidates) {
    items.push({
      word,
      window_frequency: t.count,
      frequency: tables?.frequency(word) ?? filtered?.get(word) ?? (await wordFrequency(release, request, word, work)),
      positions: request.by_position === true ? t.positions : null,
      example: t.example,
    });
  }
  const n =
    items.length === 0 ? { value: 0, exact: true } : (tables?.words ?? (await subcorpusWords(release, request, work)));
  return {
    index_version: release.indexVersion,
    query: request.query,
    left,
    right,
    ...totals,
    node_frequency: fx,
    corpus_words: n,
    collocates: ranked(items, fx, n.value, request),
  };
}

/**
 * Answers of disjoint shard sets into one: frequencies summed per word and the scores recomputed from the sums. A
 * word one part does not list misses that part's subcorpus frequency: marked `exact: false` (see DESIGN.md).
 */
export function combineCollocations(
  parts: readonly CollocationsResult[],
  ctx: CombineContext,
  body: CollocationsRequestWire,
): CollocationsResult {
  const first = parts[0];
  if (first === undefined) throw new Error('combineCollocations needs at least one part');
  const order = (shardId: string) => ctx.order.indexOf(shardId);
  const merged = new Map<string, Omit<Collocate, 'log_dice' | 'mi' | 'log_likelihood'>>();
  for (const p of parts) {
    for (const c of p.collocates) {
      const m = merged.get(c.word);
      if (m === undefined) {
        merged.set(c.word, {
          word: c.word,
          window_frequency: c.window_frequency,
          frequency: c.frequency,
          positions: c.positions,
          example: c.example,
        });
        continue;
      }
      merged.set(c.word, {
        word: c.word,
        window_frequency: m.window_frequency + c.window_frequency,
        frequency: { value: m.frequency.value + c.frequency.value, exact: m.frequency.exact && c.frequency.exact },
        positions:
          m.positions === null || c.positions === null ? null : m.positions.map((v, i) => v + (c.positions?.[i] ?? 0)),
        example: order(c.example.shard_id) < order(m.example.shard_id) ? c.example : m.example,
      });
    }
  }
  // A part that does not list a word did not count its frequency there: the merged frequency is then a lower bound.
  for (const [word, m] of merged) {
    if (parts.some((p) => !p.collocates.some((c) => c.word === word)))
      merged.set(word, { ...m, frequency: { value: m.frequency.value, exact: false } });
  }
  const sum = (f: (p: CollocationsResult) => number) => parts.reduce((s, p) => s + f(p), 0);
  const fx = sum((p) => p.node_frequency);
  const n = { value: sum((p) => p.corpus_words.value), exact: parts.every((p) => p.corpus_words.exact) };
  return {
    ...first,
    mode: parts.some((p) => p.mode === 'sampled') ? 'sampled' : 'exact',
    total_occurrences: sum((p) => p.total_occurrences),
    read_occurrences: sum((p) => p.read_occurrences),
    sampled_shards: sum((p) => p.sampled_shards),
    node_frequency: fx,
    corpus_words: n,
    collocates: ranked([...merged.values()], fx, n.value, body),
  };
}
