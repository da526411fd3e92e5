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
  type VariantInterval,
} from '../../matching/index.ts';
import type { ShardHandle } from '../../release/types.ts';
import type { ShardReader } from '../../shard/index.ts';
import { asV2Error, withMatchingErrors } from '../matching.ts';
import type { TermProbe } from './article-text.ts';
import { termsOf, type QueryNode, type TermField, type TermNode } from './ast.ts';
import type { QueryBudget } from './evaluate.ts';
import { fieldReader } from './fields.ts';
import { RequiredTerms } from './required-terms.ts';
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
  /** The same, by term. */
  readonly byTerm: ReadonlyMap<TermNode, PreparedTerm>;
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
  return {
    tree,
    options,
    terms,
    byTerm: new Map(terms.map((t) => [t.term, t])),
    fields: [...new Set(terms.map((t) => t.term.field))],
  };
}

/** One shard's part of a query: how each term is probed, and the occurrences that drive it (DESIGN.md). */
export interface ShardPlan {
  readonly shard: ShardHandle;
  /**
   * Each term's probe. In a shard lacking a required term (`planShard`), only the terms looked up before it and the
   * prefixes: nothing there is verified, so the others are never asked for.
   */
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
  /** The drivers, each once: whose occurrences `intervals` hold. */
  readonly drivers: readonly TermNode[];
  /** The terms' rank intervals here (the same terms as `probes`): what locating a term instead of searching its bytes would cost. */
  readonly terms: ReadonlyMap<TermNode, ShardTerm>;
}

/** A term in one shard: its probe, and the rank interval of each of its spellings (same order). */
export interface ShardTerm {
  readonly probe: TermProbe;
  readonly found: readonly VariantInterval[];
  /** Occurrences in `found`: the term's cost as a driver. */
  readonly size: number;
}

// Plain loops and no closures below: this runs per term and shard (83 shards on the real corpora), and under tsx
// every named closure costs a `__name` property definition, which profiled as a large part of planning.

/** A part's rank interval(s) in one shard: case-sensitive one binary search (kept when empty: its one spelling). */
function partIntervals(
  reader: ShardReader,
  part: PreparedMatch,
  options: MatchOptions,
  budget: MatchBudget,
): readonly VariantInterval[] {
  if (!options.caseInsensitive) {
    const { lo, hi } = reader.find(part.bytes);
    return [{ lo, hi, bytes: part.bytes }];
  }
  try {
    return matchPrepared(reader, part, budget).intervals;
  } catch (e) {
    throw asV2Error(e);
  }
}

function sizeOf(intervals: readonly VariantInterval[]): number {
  let n = 0;
  for (const iv of intervals) n += iv.hi - iv.lo;
  return n;
}

function spellingsOf(intervals: readonly VariantInterval[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const iv of intervals) out.push(iv.bytes);
  return out;
}

function shardTerm(shard: ShardHandle, t: PreparedTerm, options: MatchOptions, budget: MatchBudget): ShardTerm {
  const reader = fieldReader(shard, t.term.field);
  if (!t.term.wildcard_word) {
    const found = partIntervals(reader, t.parts[0] as PreparedMatch, options, budget);
    return {
      probe: { term: t.term, spellings: spellingsOf(found), wholeWord: t.wholeWord },
      found,
      size: sizeOf(found),
    };
  }
  // A `*` phrase: its rarest literal segment drives; the pattern decides. Case-insensitively each segment's
  // spellings in this shard (the case walk's intervals) are what the pattern accepts for it.
  const segments = new Map(
    t.parts.map((part) => {
      const found = partIntervals(reader, part, options, budget).filter((iv) => iv.hi > iv.lo);
      return [part.query, { found, size: sizeOf(found) }] as const;
    }),
  );
  const rarest = [...segments.values()].reduce((best, s) => (s.size < best.size ? s : best));
  const decoder = new TextDecoder();
  const pattern =
    t.pattern ??
    phrasePattern(t.term.text, (part) => segments.get(part)?.found.map((iv) => decoder.decode(iv.bytes)) ?? []);
  const probe = { term: t.term, spellings: spellingsOf(rarest.found), wholeWord: t.wholeWord, pattern };
  return { probe, found: rarest.found, size: rarest.size };
}

/**
 * Adds to `out` the terms whose occurrences every match must contain: a term itself, the rarer side of a NEAR,
 * every branch of an OR, the cheapest positive child of an AND (cost = interval sizes). NOT children never drive.
 */
function addDrivers(node: QueryNode, terms: ReadonlyMap<TermNode, ShardTerm>, out: TermNode[]): void {
  switch (node.type) {
    case 'term':
      if (!out.includes(node)) out.push(node);
      return;
    case 'near': {
      const left = terms.get(node.left)?.size ?? 0;
      const right = terms.get(node.right)?.size ?? 0;
      addDrivers(left <= right ? node.left : node.right, terms, out);
      return;
    }
    case 'or':
      for (const c of node.children) addDrivers(c, terms, out);
      return;
    case 'not':
      throw new Error('a NOT has no occurrences to drive a search (validate.ts refuses such queries)');
    case 'and': {
      let best: TermNode[] | undefined;
      let bestCost = 0;
      for (const c of node.children) {
        if (c.type === 'not') continue;
        const d: TermNode[] = [];
        addDrivers(c, terms, d);
        let cost = 0;
        for (const t of d) cost += terms.get(t)?.size ?? 0;
        if (best === undefined || cost < bestCost) [best, bestCost] = [d, cost];
      }
      for (const t of best ?? []) if (!out.includes(t)) out.push(t);
      return;
    }
  }
}

/**
 * Step 1 for one shard: every term's rank intervals and the drivers, from the request's prepared query. The required
 * terms are looked up first (`required` keeps their order across shards); when one is absent the shard cannot match:
 * its plan has no driver and locates nothing, and only the prefixes among the terms not yet looked up are (their
 * expansions are part of the answer).
 */
export function planShard(
  shard: ShardHandle,
  query: PreparedQuery,
  budget: QueryBudget,
  required: RequiredTerms = new RequiredTerms(query.tree),
): ShardPlan {
  const terms = new Map<TermNode, ShardTerm>();
  const probes = new Map<TermNode, TermProbe>();
  let absent = false;
  for (const term of required.terms) {
    const st = shardTerm(shard, query.byTerm.get(term) as PreparedTerm, query.options, budget.match);
    terms.set(term, st);
    probes.set(term, st.probe);
    if (st.size === 0) {
      required.absentIn(term);
      absent = true;
      break;
    }
  }
  for (const t of query.terms) {
    if (terms.has(t.term) || (absent && !t.term.prefix)) continue;
    const st = shardTerm(shard, t, query.options, budget.match);
    terms.set(t.term, st);
    probes.set(t.term, st.probe);
  }
  if (absent)
    return { shard, probes, driverSpellings: [], intervals: [], fields: query.fields, located: 0, drivers: [], terms };
  const drivers: TermNode[] = [];
  addDrivers(query.tree, terms, drivers);
  const driverSpellings: (readonly [Uint8Array, TermField])[] = [];
  const intervals: (readonly [number, number, TermField])[] = [];
  let located = 0;
  for (const t of drivers) {
    for (const iv of (terms.get(t) as ShardTerm).found) {
      driverSpellings.push([iv.bytes, t.field]);
      if (iv.hi > iv.lo) {
        intervals.push([iv.lo, iv.hi, t.field]);
        located += iv.hi - iv.lo;
      }
    }
  }
  return { shard, probes, driverSpellings, intervals, fields: query.fields, located, drivers, terms };
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
  const required = new RequiredTerms(tree);
  return shards.map((shard) => planShard(shard, query, budget, required));
}
