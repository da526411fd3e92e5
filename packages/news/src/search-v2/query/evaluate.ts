import { matchBudget, matchPrepared, prepareMatch, type MatchBudget, type MatchOptions } from '../../matching/index.ts';
import type { ShardHandle } from '../../release/types.ts';
import type { ShardReader } from '../../shard/index.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { V2Error } from '../errors.ts';
import { withMatchingErrors } from '../matching.ts';
import { termsOf, type QueryNode, type TermField, type TermNode } from './ast.ts';
import { fieldReader } from './fields.ts';
import { hitsIn, wordIndexAt, wordStarts, type Hit, type TermProbe } from './article-text.ts';
import { QUERY_LIMITS, type QueryWorkLimits } from './limits.ts';
import { literalSegments, phrasePattern } from './wildcard-phrase.ts';

/** The work one request may still do, shared by all its shards. */
export interface QueryBudget {
  verified: number;
  readonly limits: QueryWorkLimits;
  readonly match: MatchBudget;
  readonly work: WorkBudget;
}

export function queryBudget(
  work: WorkBudget = WorkBudget.unlimited(),
  limits: QueryWorkLimits = QUERY_LIMITS,
): QueryBudget {
  return { verified: limits.verifiedBytes, limits, match: matchBudget(undefined, undefined, work), work };
}

/**
 * A matching article: shard-local number, the first occurrence of a positive term in it (in its headline for a
 * `title:` term, when no article term occurs), and their number.
 */
export interface ArticleMatch {
  readonly doc: number;
  readonly term: TermNode;
  readonly hit: Hit;
  /** Occurrences of the positive terms in the article (what its facet values count as `occurrences`). */
  readonly occurrences: number;
}

/** Terms that are not under a NOT: the ones that must (or may) be present in a matching article. */
function positiveTerms(node: QueryNode): TermNode[] {
  switch (node.type) {
    case 'term':
      return [node];
    case 'near':
      return [node.left, node.right];
    case 'not':
      return [];
    case 'and':
    case 'or':
      return node.children.flatMap(positiveTerms);
  }
}

/**
 * The request's matching options for one term, in its field's index: a prefix's end is open, so whole_word never
 * applies to it whole.
 */
function probeOf(
  shard: ShardHandle,
  term: TermNode,
  options: MatchOptions,
  budget: MatchBudget,
): { probe: TermProbe; size: number } {
  const wholeWord = options.wholeWord && !term.prefix;
  const reader = fieldReader(shard, term.field);
  if (term.wildcard_word) return wildcardProbe(reader, term, options, budget);
  const m = withMatchingErrors(() =>
    matchPrepared(reader, prepareMatch(term.text, { caseInsensitive: options.caseInsensitive, wholeWord }), budget),
  );
  const spellings = m.intervals.map((iv) => iv.bytes);
  const size = m.intervals.reduce((n, iv) => n + iv.hi - iv.lo, 0);
  return { probe: { term, spellings, wholeWord }, size };
}

/**
 * A `*` phrase: its rarest literal segment drives; the pattern decides. Case-insensitively each segment's spellings
 * in this shard (the case walk's intervals) are what the pattern accepts for it.
 */
function wildcardProbe(
  reader: ShardReader,
  term: TermNode,
  options: MatchOptions,
  budget: MatchBudget,
): { probe: TermProbe; size: number } {
  const text = new TextDecoder();
  const segments = new Map(
    literalSegments(term.text).map((part) => {
      const m = withMatchingErrors(() =>
        matchPrepared(
          reader,
          prepareMatch(part, { caseInsensitive: options.caseInsensitive, wholeWord: false }),
          budget,
        ),
      );
      const found = m.intervals.filter((iv) => iv.hi > iv.lo);
      return [part, { spellings: found.map((iv) => iv.bytes), size: found.reduce((n, iv) => n + iv.hi - iv.lo, 0) }];
    }),
  );
  const rarest = [...segments.values()].reduce((best, s) => (s.size < best.size ? s : best));
  const pattern = options.caseInsensitive
    ? phrasePattern(term.text, (part) => segments.get(part)?.spellings.map((b) => text.decode(b)) ?? [])
    : phrasePattern(term.text);
  return { probe: { term, spellings: rarest.spellings, wholeWord: options.wholeWord, pattern }, size: rarest.size };
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

/**
 * Step 1 for a shard, no locate: every term's rank intervals and the drivers, the terms whose occurrences every match
 * must contain (the cheapest positive child of each AND, every branch of an OR, the rarer side of a NEAR).
 */
export function planShard(shard: ShardHandle, tree: QueryNode, options: MatchOptions, budget: QueryBudget): ShardPlan {
  const probes = new Map<TermNode, TermProbe>();
  const sizes = new Map<TermNode, number>();
  for (const t of termsOf(tree)) {
    const { probe, size } = probeOf(shard, t, options, budget.match);
    probes.set(t, probe);
    sizes.set(t, size);
  }
  const cost = (ts: readonly TermNode[]) => ts.reduce((n, t) => n + (sizes.get(t) ?? 0), 0);
  const drivers = (node: QueryNode): TermNode[] => {
    switch (node.type) {
      case 'term':
        return [node];
      case 'near':
        return [(sizes.get(node.left) ?? 0) <= (sizes.get(node.right) ?? 0) ? node.left : node.right];
      case 'or':
        return node.children.flatMap(drivers);
      case 'not':
        throw new Error('a NOT has no occurrences to drive a search (validate.ts refuses such queries)');
      case 'and': {
        const options = node.children.filter((c) => c.type !== 'not').map(drivers);
        return options.reduce((best, d) => (cost(d) < cost(best) ? d : best));
      }
    }
  };
  const driverTerms = [...new Set(drivers(tree))];
  const driverSpellings = driverTerms.flatMap((t) =>
    (probes.get(t) as TermProbe).spellings.map((s) => [s, t.field] as const),
  );
  const intervals: (readonly [number, number, TermField])[] = [];
  for (const t of driverTerms) {
    for (const spelling of (probes.get(t) as TermProbe).spellings) {
      const { lo, hi } = fieldReader(shard, t.field).find(spelling);
      if (hi > lo) intervals.push([lo, hi, t.field]);
    }
  }
  const fields = [...new Set(termsOf(tree).map((t) => t.field))];
  return {
    shard,
    probes,
    driverSpellings,
    intervals,
    fields,
    located: intervals.reduce((n, [lo, hi]) => n + hi - lo, 0),
  };
}

/** Step 2, exact: the articles holding a driver occurrence, sorted (one `locate` per occurrence). */
export async function candidateArticles(plan: ShardPlan, work: WorkBudget): Promise<number[]> {
  const docs = new Set<number>();
  for (const [lo, hi, field] of plan.intervals) {
    const reader = fieldReader(plan.shard, field);
    for (let r = lo; r < hi; r++) {
      if (work.due()) await work.pause();
      docs.add(reader.locate(r).doc);
    }
  }
  return [...docs].sort((a, b) => a - b);
}

/**
 * Step 3: the whole query tested inside one article's text (byte search of each term's spellings, the word rules,
 * word positions for NEAR); its first positive occurrence when it matches, else null. Counts the bytes read.
 */
export function verifyArticle(plan: ShardPlan, tree: QueryNode, doc: number, budget: QueryBudget): ArticleMatch | null {
  // Each field's text is read once, and only when a term of that field is tested: a headline-only query never reads
  // article bodies.
  const texts = new Map<TermField, Buffer>();
  const textOf = (field: TermField): Buffer => {
    let text = texts.get(field);
    if (text === undefined) {
      const reader = fieldReader(plan.shard, field);
      budget.verified -= reader.documentLength(doc);
      if (budget.verified < 0)
        throw tooExpensive(
          `verifying the query would read more than ${budget.limits.verifiedBytes} bytes of candidate articles`,
        );
      texts.set(field, (text = reader.documentBytes(doc)));
    }
    return text;
  };
  const hits = new Map<TermNode, Hit[]>();
  const hitsOf = (t: TermNode): Hit[] => {
    let h = hits.get(t);
    if (h === undefined) hits.set(t, (h = hitsIn(textOf(t.field), plan.probes.get(t) as TermProbe)));
    return h;
  };
  const starts = new Map<TermField, number[]>();
  // validate.ts admits a NEAR only between two terms of one field: word positions are counted in that text.
  const near = (field: TermField, l: Hit[], r: Hit[], distance: number): boolean => {
    let ws = starts.get(field);
    if (ws === undefined) starts.set(field, (ws = wordStarts(textOf(field))));
    const rs = r.map((h) => wordIndexAt(ws, h.at));
    // Both lists ascend (hits are in offset order), so one pass finds a pair within the distance: O(|l| + |r|).
    let j = 0;
    for (const h of l) {
      const w = wordIndexAt(ws, h.at);
      while (j < rs.length && (rs[j] as number) < w - distance) j++;
      if (j < rs.length && (rs[j] as number) <= w + distance) return true;
    }
    return false;
  };
  const matches = (node: QueryNode): boolean => {
    switch (node.type) {
      case 'term':
        return hitsOf(node).length > 0;
      case 'near':
        return (
          hitsOf(node.left).length > 0 &&
          hitsOf(node.right).length > 0 &&
          near(node.left.field, hitsOf(node.left), hitsOf(node.right), node.distance)
        );
      case 'not':
        return !matches(node.child);
      case 'and':
        return node.children.every(matches);
      case 'or':
        return node.children.some(matches);
    }
  };
  if (!matches(tree)) return null;
  let first: { term: TermNode; hit: Hit } | undefined;
  let occurrences = 0;
  for (const t of new Set(positiveTerms(tree))) {
    const h = hitsOf(t);
    occurrences += h.length;
    const at = h[0];
    // The first occurrence shown is the article's own when an article term has one, else the headline's.
    const earlier =
      first === undefined ||
      (t.field === first.term.field ? at !== undefined && at.at < first.hit.at : t.field === 'body');
    if (at !== undefined && earlier) first = { term: t, hit: at };
  }
  return first === undefined ? null : { doc, ...first, occurrences };
}

/** The matching articles among `docs` (candidates that passed the filters, in article order), exactly. */
export async function verifyArticles(
  plan: ShardPlan,
  tree: QueryNode,
  docs: readonly number[],
  budget: QueryBudget,
): Promise<ArticleMatch[]> {
  const matches: ArticleMatch[] = [];
  for (const doc of docs) {
    if (budget.work.due()) await budget.work.pause();
    const m = verifyArticle(plan, tree, doc, budget);
    if (m !== null) matches.push(m);
  }
  return matches;
}

export function tooExpensive(why: string): V2Error {
  return new V2Error(
    'query_too_expensive',
    `the query cannot be answered exactly within its work bound: ${why}; narrow the years, add filters or use rarer terms`,
  );
}
