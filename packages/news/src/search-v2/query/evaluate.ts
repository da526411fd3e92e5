import { matchBudget, type MatchBudget } from '../../matching/index.ts';
import { WorkBudget } from '../../work-budget/index.ts';
import { V2Error } from '../errors.ts';
import type { QueryNode, TermField, TermNode } from './ast.ts';
import { fieldReader } from './fields.ts';
import { hitsIn, keepsHit, occursIn, wordStartsBetween, type Hit, type TermProbe } from './article-text.ts';
import type { Candidates } from './candidates.ts';
import type { LocatedTerm } from './located.ts';
import { QUERY_LIMITS, type QueryWorkLimits } from './limits.ts';
import type { ShardPlan } from './plan.ts';

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
 * One candidate article being verified. A class rather than closures per article: the worker runs through tsx,
 * whose `__name` wrapper of every closure was a measurable part of verifying many short articles.
 */
class Candidate {
  // Each field's text is read once, and only when a term of that field is tested: a headline-only query never reads
  // article bodies.
  readonly #texts = new Map<TermField, Buffer>();
  readonly #hits = new Map<TermNode, Hit[]>();

  constructor(
    readonly plan: ShardPlan,
    readonly doc: number,
    readonly budget: QueryBudget,
    readonly located: ReadonlyMap<TermNode, LocatedTerm> | undefined,
  ) {}

  text(field: TermField): Buffer {
    let text = this.#texts.get(field);
    if (text === undefined) {
      const reader = fieldReader(this.plan.shard, field);
      this.budget.verified -= reader.documentLength(this.doc);
      if (this.budget.verified < 0)
        throw tooExpensive(
          `verifying the query would read more than ${this.budget.limits.verifiedBytes} bytes of candidate articles`,
        );
      this.#texts.set(field, (text = reader.documentView(this.doc)));
    }
    return text;
  }

  hits(t: TermNode): Hit[] {
    let h = this.#hits.get(t);
    if (h === undefined) {
      const probe = this.plan.probes.get(t) as TermProbe;
      const located = this.located?.get(t);
      // A located term's hits need no byte search: only the word rules read a few bytes around each.
      if (located === undefined) h = hitsIn(this.text(t.field), probe);
      else {
        h = located.hitsOf(this.doc);
        if (h.length > 0 && (probe.term.prefix || probe.wholeWord)) {
          const text = this.text(t.field);
          const all = h;
          h = [];
          for (const hit of all) if (keepsHit(text, probe, hit.at, hit.length)) h.push(hit);
        }
      }
      this.#hits.set(t, h);
    }
    return h;
  }

  /**
   * Whether the term occurs: from its hits when known or located, else a search that stops at the first occurrence
   * passing the word rules (most candidates of an AND fail it, and their full hit lists were never needed).
   */
  has(t: TermNode): boolean {
    const known = this.#hits.get(t);
    if (known !== undefined) return known.length > 0;
    const located = this.located?.get(t);
    const probe = this.plan.probes.get(t) as TermProbe;
    if (located === undefined) return occursIn(this.text(t.field), probe);
    // Without word rules every located occurrence counts: a binary search answers, no hit listed.
    return probe.term.prefix || probe.wholeWord ? this.hits(t).length > 0 : located.occursIn(this.doc);
  }

  /** The term's first hit and number of hits: for a located term without word rules, none listed. */
  firstOf(t: TermNode): { first: Hit | undefined; count: number } {
    const located = this.located?.get(t);
    const probe = this.plan.probes.get(t) as TermProbe;
    if (located !== undefined && !this.#hits.has(t) && !probe.term.prefix && !probe.wholeWord)
      return located.firstOf(this.doc);
    const h = this.hits(t);
    return { first: h[0], count: h.length };
  }

  /**
   * Whether an occurrence of `l` and one of `r` are at most `distance` words apart (validate.ts admits a NEAR only
   * between two terms of one field: words are counted in that text). Word positions only grow with the offset, so
   * the closest pair is adjacent in offset order: walking both sorted lists as one, each neighbouring pair from
   * different sides has its words counted over the bytes between them (disjoint stretches, each cut at
   * `distance + 1` words), instead of numbering every word of the article.
   */
  near(field: TermField, l: readonly Hit[], r: readonly Hit[], distance: number): boolean {
    const text = this.text(field);
    let i = 0;
    let j = 0;
    let prev: { at: number; left: boolean } | undefined;
    while (i < l.length || j < r.length) {
      const left = j >= r.length || (i < l.length && (l[i] as Hit).at <= (r[j] as Hit).at);
      const at = left ? (l[i++] as Hit).at : (r[j++] as Hit).at;
      if (prev !== undefined && prev.left !== left && wordStartsBetween(text, prev.at, at, distance) <= distance)
        return true;
      prev = { at, left };
    }
    return false;
  }

  matches(node: QueryNode): boolean {
    switch (node.type) {
      case 'term':
        return this.has(node);
      case 'near': {
        const l = this.hits(node.left);
        const r = l.length > 0 ? this.hits(node.right) : [];
        return r.length > 0 && this.near(node.left.field, l, r, node.distance);
      }
      case 'not':
        return !this.matches(node.child);
      case 'and':
        for (const c of node.children) if (!this.matches(c)) return false;
        return true;
      case 'or':
        for (const c of node.children) if (this.matches(c)) return true;
        return false;
    }
  }
}

/** The distinct positive terms of each tree (computed once per tree, not per article). */
const POSITIVE = new WeakMap<QueryNode, readonly TermNode[]>();

/**
 * Step 3: the whole query tested inside one article's text (byte search of each term's spellings, the word rules,
 * word positions for NEAR); its first positive occurrence when it matches, else null. Counts the bytes read.
 */
export function verifyArticle(
  plan: ShardPlan,
  tree: QueryNode,
  doc: number,
  budget: QueryBudget,
  located?: ReadonlyMap<TermNode, LocatedTerm>,
): ArticleMatch | null {
  const article = new Candidate(plan, doc, budget, located);
  if (!article.matches(tree)) return null;
  let positive = POSITIVE.get(tree);
  if (positive === undefined) POSITIVE.set(tree, (positive = [...new Set(positiveTerms(tree))]));
  let first: { term: TermNode; hit: Hit } | undefined;
  let occurrences = 0;
  for (const t of positive) {
    const { first: at, count } = article.firstOf(t);
    occurrences += count;
    // The first occurrence shown is the article's own when an article term has one, else the headline's.
    const earlier =
      first === undefined ||
      (t.field === first.term.field ? at !== undefined && at.at < first.hit.at : t.field === 'body');
    if (at !== undefined && earlier) first = { term: t, hit: at };
  }
  return first === undefined ? null : { doc, ...first, occurrences };
}

/** Step 3, exact: per shard, the matching articles among its candidates (in article order). */
export async function verifyArticles(
  plans: readonly ShardPlan[],
  tree: QueryNode,
  candidates: Candidates,
  budget: QueryBudget,
): Promise<ArticleMatch[][]> {
  const out: ArticleMatch[][] = [];
  for (let i = 0; i < plans.length; i++) {
    const matches: ArticleMatch[] = [];
    for (const doc of candidates.docs[i] ?? []) {
      if (budget.work.due()) await budget.work.pause();
      const m = verifyArticle(plans[i] as ShardPlan, tree, doc, budget, candidates.located[i]);
      if (m !== null) matches.push(m);
    }
    out.push(matches);
  }
  return out;
}

export function tooExpensive(why: string): V2Error {
  return new V2Error(
    'query_too_expensive',
    `the query cannot be answered exactly within its work bound: ${why}; narrow the years, add filters or use rarer terms`,
  );
}
