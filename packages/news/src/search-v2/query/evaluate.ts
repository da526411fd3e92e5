import { matchBudget, matchPrepared, prepareMatch, type MatchBudget, type MatchOptions } from '../../matching/index.ts';
import type { ShardHandle } from '../../release/types.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { V2Error } from '../errors.ts';
import { withMatchingErrors } from '../matching.ts';
import { termsOf, type QueryNode, type TermNode } from './ast.ts';
import { hitsIn, wordAt, wordIndexAt, wordStarts, type Hit, type TermProbe } from './article-text.ts';
import { QUERY_LIMITS, type QueryWorkLimits } from './limits.ts';
import { literalSegments, phrasePattern } from './wildcard-phrase.ts';

/** The work one request may still do, shared by all its shards. */
export interface QueryBudget {
  located: number;
  verified: number;
  readonly limits: QueryWorkLimits;
  readonly match: MatchBudget;
  readonly work: WorkBudget;
}

export function queryBudget(work: WorkBudget = WorkBudget.unlimited(), limits: QueryWorkLimits = QUERY_LIMITS): QueryBudget {
  return { located: limits.locatedOccurrences, verified: limits.verifiedBytes, limits, match: matchBudget(undefined, undefined, work), work };
}

/** A matching article: shard-local number, the first occurrence of a positive term in it, and their number. */
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
    case 'term': return [node];
    case 'near': return [node.left, node.right];
    case 'not': return [];
    case 'and': case 'or': return node.children.flatMap(positiveTerms);
  }
}

/** The request's matching options for one term: a prefix's end is open, so whole_word never applies to it whole. */
function probeOf(shard: ShardHandle, term: TermNode, options: MatchOptions, budget: MatchBudget): { probe: TermProbe; size: number } {
  const wholeWord = options.wholeWord && !term.prefix;
  if (term.wildcard_word) return wildcardProbe(shard, term, options, budget);
  const m = withMatchingErrors(() => matchPrepared(shard.reader, prepareMatch(term.text, { caseInsensitive: options.caseInsensitive, wholeWord }), budget));
  const spellings = m.intervals.map((iv) => iv.bytes);
  const size = m.intervals.reduce((n, iv) => n + iv.hi - iv.lo, 0);
  return { probe: { term, spellings, wholeWord }, size };
}

/** A `*` phrase: its rarest literal segment drives; the pattern decides (case-sensitive only in this version). */
function wildcardProbe(shard: ShardHandle, term: TermNode, options: MatchOptions, budget: MatchBudget): { probe: TermProbe; size: number } {
  if (options.caseInsensitive) throw new V2Error('invalid_query', `"*" as a word in the phrase "${term.text}" is not supported with case: insensitive yet; search it case-sensitively`);
  const segments = literalSegments(term.text).map((text) => {
    const m = withMatchingErrors(() => matchPrepared(shard.reader, prepareMatch(text, { caseInsensitive: false, wholeWord: false }), budget));
    return { spellings: m.intervals.map((iv) => iv.bytes), size: m.intervals.reduce((n, iv) => n + iv.hi - iv.lo, 0) };
  });
  const rarest = segments.reduce((best, s) => (s.size < best.size ? s : best));
  return { probe: { term, spellings: rarest.spellings, wholeWord: options.wholeWord, pattern: phrasePattern(term.text) }, size: rarest.size };
}

/**
 * The query's matching articles in one shard, in article order (see DESIGN.md, "Query language"): the occurrences
 * of the cheapest terms that every match must contain (the rarest positive child of each AND, both sides of an OR,
 * the rarer side of a NEAR) are located to articles; each candidate that passes `keep` (the metadata filters) is
 * read and the whole query tested inside its text. `expansions` collects what each `word*` stood for.
 */
export async function evaluateShard(
  shard: ShardHandle, tree: QueryNode, options: MatchOptions, budget: QueryBudget,
  keep: (doc: number) => boolean, expansions: Map<TermNode, Map<string, number>>,
): Promise<ArticleMatch[]> {
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
      case 'term': return [node];
      case 'near': return [(sizes.get(node.left) ?? 0) <= (sizes.get(node.right) ?? 0) ? node.left : node.right];
      case 'or': return node.children.flatMap(drivers);
      case 'not': throw new Error('a NOT has no occurrences to drive a search (validate.ts refuses such queries)');
      case 'and': {
        const options = node.children.filter((c) => c.type !== 'not').map(drivers);
        return options.reduce((best, d) => (cost(d) < cost(best) ? d : best));
      }
    }
  };
  const candidates = await locateArticles(shard, [...new Set(drivers(tree))].map((t) => probes.get(t) as TermProbe), budget);
  const positive = [...new Set(positiveTerms(tree))];
  const matches: ArticleMatch[] = [];
  for (const doc of candidates) {
    if (budget.work.due()) await budget.work.pause();
    if (!keep(doc)) continue;
    budget.verified -= shard.reader.documentLength(doc);
    if (budget.verified < 0) throw tooExpensive(`verifying the query would read more than ${budget.limits.verifiedBytes} bytes of candidate articles`);
    const article = shard.reader.documentBytes(doc);
    const hits = new Map<TermNode, Hit[]>();
    const hitsOf = (t: TermNode): Hit[] => {
      let h = hits.get(t);
      if (h === undefined) hits.set(t, (h = hitsIn(article, probes.get(t) as TermProbe)));
      return h;
    };
    let starts: number[] | undefined;
    const near = (l: Hit[], r: Hit[], distance: number): boolean => {
      starts ??= wordStarts(article);
      const ws = starts;
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
    const matches1 = (node: QueryNode): boolean => {
      switch (node.type) {
        case 'term': return hitsOf(node).length > 0;
        case 'near': return hitsOf(node.left).length > 0 && hitsOf(node.right).length > 0 && near(hitsOf(node.left), hitsOf(node.right), node.distance);
        case 'not': return !matches1(node.child);
        case 'and': return node.children.every(matches1);
        case 'or': return node.children.some(matches1);
      }
    };
    if (!matches1(tree)) continue;
    let first: ArticleMatch | undefined;
    let occurrences = 0;
    for (const t of positive) {
      const h = hitsOf(t);
      occurrences += h.length;
      const at = h[0];
      if (at !== undefined && (first === undefined || at.at < first.hit.at)) first = { doc, term: t, hit: at, occurrences: 0 };
      if (t.prefix) countExpansions(article, t, h, expansions);
    }
    if (first !== undefined) matches.push({ ...first, occurrences });
  }
  return matches;
}

/** Articles holding an occurrence of any driver, sorted; every located rank counts against the request's bound. */
async function locateArticles(shard: ShardHandle, drivers: readonly TermProbe[], budget: QueryBudget): Promise<number[]> {
  const docs = new Set<number>();
  for (const probe of drivers) {
    for (const spelling of probe.spellings) {
      const { lo, hi } = shard.reader.find(spelling);
      budget.located -= hi - lo;
      if (budget.located < 0) throw tooExpensive(`its rarest terms occur more than ${budget.limits.locatedOccurrences} times in the selected years`);
      for (let r = lo; r < hi; r++) {
        if (budget.work.due()) await budget.work.pause();
        docs.add(shard.reader.locate(r).doc);
      }
    }
  }
  return [...docs].sort((a, b) => a - b);
}

function countExpansions(article: Buffer, term: TermNode, hits: readonly Hit[], expansions: Map<TermNode, Map<string, number>>): void {
  let words = expansions.get(term);
  if (words === undefined) expansions.set(term, (words = new Map()));
  for (const h of hits) {
    const w = wordAt(article, h.at);
    words.set(w, (words.get(w) ?? 0) + 1);
  }
  if (words.size > QUERY_LIMITS.expansions) {
    throw new V2Error('query_too_complex', `${term.text}* stands for more than ${QUERY_LIMITS.expansions} different words: write a longer prefix`, { limit: QUERY_LIMITS.expansions });
  }
}

function tooExpensive(why: string): V2Error {
  return new V2Error('query_too_expensive', `the query cannot be answered exactly within its work bound: ${why}; narrow the years, add filters or use rarer terms`);
}
