/**
 * Step 1 of the query evaluation (DESIGN.md, "Query language"): each term's rank intervals per shard and the
 * drivers, no locate. Everything that does not depend on the shard (encoding the terms, the whole-word check, the
 * `*` phrases' patterns, the tree's term and field lists) is prepared once per request: with 83 monthly shards on
 * the real corpora, per-shard repetitions of it were most of a rare query's time.
 */
import {
  matchPrepared,
  prepareMatch,
  type MatchBudget,
  type MatchOptions,
  type PreparedMatch,
} from '../../matching/index.ts';
import type { ShardHandle } from '../../release/types.ts';
import { withMatchingErrors } from '../matching.ts';
import type { TermProbe } from './article-text.ts';
import { termsOf, type QueryNode, type TermField, type TermNode } from './ast.ts';
import type { QueryBudget } from './evaluate.ts';
import { fieldReader } from './fields.ts';
import { literalSegments, phrasePattern } from './wildcard-phrase.ts';

/** How one term is looked up in every shard, prepared once per request. */
interface PreparedTerm {
  readonly term: TermNode;
  /** The prefix's end is open, so whole_word never applies to a prefix whole. */
  readonly wholeWord: boolean;
  /** The term's bytes, or for a `*` phrase its literal segments (the rarest in a shard drives). */
  readonly parts: readonly PreparedMatch[];
  /** A `*` phrase matched case-sensitively: the same pattern in every shard (case-insensitively it is per shard). */
  readonly pattern?: RegExp;
}

/** A query ready to be planned in any number of shards. */
export interface PreparedQuery {
  readonly tree: QueryNode;
  readonly options: MatchOptions;
  readonly terms: readonly PreparedTerm[];
  /** The fields the query's terms look in (body, title): what verifying a candidate reads. */
  readonly fields: readonly TermField[];
}

/** Encodes the query's terms and checks them against the options (422s come from here, before any shard). */
export function prepareQuery(tree: QueryNode, options: MatchOptions): PreparedQuery {
  const terms = [...new Set(termsOf(tree))].map((term): PreparedTerm => {
    const wholeWord = options.wholeWord && !term.prefix;
    if (!term.wildcard_word) {
      const parts = [
        withMatchingErrors(() => prepareMatch(term.text, { caseInsensitive: options.caseInsensitive, wholeWord })),
      ];
      return { term, wholeWord, parts };
    }
    const parts = literalSegments(term.text).map((part) =>
      withMatchingErrors(() => prepareMatch(part, { caseInsensitive: options.caseInsensitive, wholeWord: false })),
    );
    return {
      term,
      wholeWord: options.wholeWord,
      parts,
      ...(options.caseInsensitive ? {} : { pattern: phrasePattern(term.text) }),
    };
  });
  return { tree, options, terms, fields: [...new Set(terms.map((t) => t.term.field))] };
}

/** One shard's part of a query: how each term is probed, and the occurrences that drive it (DESIGN.md). */
export interface ShardPlan {
  readonly shard: ShardHandle;
  readonly probes: ReadonlyMap<TermNode, TermProbe>;
  /**
   * The drivers' spellings, each with the field whose index holds it: every matching article holds an occurrence of
   * at least one (a sampled article's chance of being drawn is its number of occurrences of them).
   */
  readonly driverSpellings: readonly (readonly [Uint8Array, TermField])[];
  /**
   * Their non-empty rank intervals, one per driver spelling (repeated when two drivers share one), each in its
   * field's index (a headline's document number is its article's, so located headlines are candidate articles).
   */
  readonly intervals: readonly (readonly [number, number, TermField])[];
  /** The fields the query's terms look in (body, title): what verifying a candidate reads. */
  readonly fields: readonly TermField[];
  /** Occurrences in `intervals`: what an exact answer locates, and the population a sample draws from. */
  readonly located: number;
}

/** A term in one shard: its probe, and the rank interval of each of its spellings (same order). */
interface ShardTerm {
  readonly probe: TermProbe;
  readonly ranks: readonly (readonly [number, number])[];
  /** Occurrences in `ranks`: the term's cost as a driver. */
  readonly size: number;
}

function shardTerm(shard: ShardHandle, t: PreparedTerm, options: MatchOptions, budget: MatchBudget): ShardTerm {
  const reader = fieldReader(shard, t.term.field);
  // Case-sensitive: one binary search, and the term's one spelling whether it occurs or not.
  const intervalsOf = (part: PreparedMatch): { lo: number; hi: number; bytes: Uint8Array }[] =>
    options.caseInsensitive
      ? withMatchingErrors(() => matchPrepared(reader, part, budget)).intervals.slice()
      : [{ ...reader.find(part.bytes), bytes: part.bytes }];
  if (t.parts.length === 1 && !t.term.wildcard_word) {
    const found = intervalsOf(t.parts[0] as PreparedMatch);
    return {
      probe: { term: t.term, spellings: found.map((iv) => iv.bytes), wholeWord: t.wholeWord },
      ranks: found.map((iv) => [iv.lo, iv.hi] as const),
      size: found.reduce((n, iv) => n + iv.hi - iv.lo, 0),
    };
  }
  // A `*` phrase: its rarest literal segment drives; the pattern decides. Case-insensitively each segment's
  // spellings in this shard (the case walk's intervals) are what the pattern accepts for it.
  const segments = new Map(
    t.parts.map((part) => {
      const found = intervalsOf(part).filter((iv) => iv.hi > iv.lo);
      return [part.query, { found, size: found.reduce((n, iv) => n + iv.hi - iv.lo, 0) }] as const;
    }),
  );
  const rarest = [...segments.values()].reduce((best, s) => (s.size < best.size ? s : best));
  const decoder = new TextDecoder();
  const pattern =
    t.pattern ??
    phrasePattern(t.term.text, (part) => segments.get(part)?.found.map((iv) => decoder.decode(iv.bytes)) ?? []);
  return {
    probe: { term: t.term, spellings: rarest.found.map((iv) => iv.bytes), wholeWord: t.wholeWord, pattern },
    ranks: rarest.found.map((iv) => [iv.lo, iv.hi] as const),
    size: rarest.size,
  };
}

/**
 * The terms whose occurrences every match must contain: a term itself, the rarer side of a NEAR, every branch of an
 * OR, the cheapest positive child of an AND (cost = interval sizes). NOT children never drive.
 */
function driversOf(node: QueryNode, terms: ReadonlyMap<TermNode, ShardTerm>): TermNode[] {
  const size = (t: TermNode) => terms.get(t)?.size ?? 0;
  switch (node.type) {
    case 'term':
      return [node];
    case 'near':
      return [size(node.left) <= size(node.right) ? node.left : node.right];
    case 'or':
      return node.children.flatMap((c) => driversOf(c, terms));
    case 'not':
      throw new Error('a NOT has no occurrences to drive a search (validate.ts refuses such queries)');
    case 'and': {
      let best: TermNode[] | undefined;
      let bestCost = 0;
      for (const c of node.children) {
        if (c.type === 'not') continue;
        const d = driversOf(c, terms);
        const cost = d.reduce((n, t) => n + size(t), 0);
        if (best === undefined || cost < bestCost) [best, bestCost] = [d, cost];
      }
      return best ?? [];
    }
  }
}

/** Step 1 for one shard: every term's rank intervals and the drivers, from the request's prepared query. */
export function planShard(shard: ShardHandle, query: PreparedQuery, budget: QueryBudget): ShardPlan {
  const terms = new Map<TermNode, ShardTerm>();
  for (const t of query.terms) terms.set(t.term, shardTerm(shard, t, query.options, budget.match));
  const probes = new Map<TermNode, TermProbe>();
  for (const [t, st] of terms) probes.set(t, st.probe);
  const driverSpellings: (readonly [Uint8Array, TermField])[] = [];
  const intervals: (readonly [number, number, TermField])[] = [];
  let located = 0;
  for (const t of new Set(driversOf(query.tree, terms))) {
    const st = terms.get(t) as ShardTerm;
    st.probe.spellings.forEach((spelling, i) => {
      driverSpellings.push([spelling, t.field]);
      const [lo, hi] = st.ranks[i] as readonly [number, number];
      if (hi > lo) {
        intervals.push([lo, hi, t.field]);
        located += hi - lo;
      }
    });
  }
  return { shard, probes, driverSpellings, intervals, fields: query.fields, located };
}

/**
 * Step 1 for the request's shards: the query prepared once, then planned per shard.
 *
 * @example planShards(shards, parseQuery('oil AND prices').tree, EXACT_MATCHING, queryBudget())[0]?.located // 12
 */
export function planShards(
  shards: readonly ShardHandle[],
  tree: QueryNode,
  options: MatchOptions,
  budget: QueryBudget,
): ShardPlan[] {
  // No shard selected: nothing is looked up, so nothing is refused (as when each shard prepared its own terms).
  if (shards.length === 0) return [];
  const query = prepareQuery(tree, options);
  return shards.map((shard) => planShard(shard, query, budget));
}
