import type { WorkBudget } from '../../work-budget/index.ts';
import { forEachLocated } from '../locate-range.ts';
import type { TermField, TermNode } from './ast.ts';
import { fieldReader } from './fields.ts';
import { cheaperToLocate, locatable, LocatedTerm, LOCATED_HITS_MAX, type EvaluationPath } from './located.ts';
import type { ShardPlan, ShardTerm } from './plan.ts';

/** Candidates of every shard that pass the filters, and the text verifying them would read (known before reading). */
export interface Candidates {
  /** Per shard (index into the plans): the articles holding a driver occurrence, ascending. */
  readonly docs: readonly (readonly number[])[];
  /** Each candidate's length in every field the query looks in: an upper bound of the verified bytes. */
  readonly bytes: number;
  /** Per shard: the terms whose hits come from their located occurrences; the others are searched in the text. */
  readonly located: readonly ReadonlyMap<TermNode, LocatedTerm>[];
}

/** Ranks whose positions are read per call between the work budget's pause checks (~5 ms on the compressed kind). */
const POSITIONS_BATCH = 256;

/** Every occurrence of `t` kept as a hit of `hits`: positions read a batch at a time, pausing when the budget asks. */
async function locateInto(hits: LocatedTerm, t: ShardTerm, work: WorkBudget): Promise<void> {
  for (let s = 0; s < t.found.length; s++) {
    const { lo, hi } = t.found[s] as ShardTerm['found'][number];
    for (let from = lo; from < hi; from += POSITIONS_BATCH) {
      if (work.due()) await work.pause();
      hits.addRange(from, Math.min(hi, from + POSITIONS_BATCH), s);
    }
  }
}

/** Adds to `seen` the article of every occurrence of `t` (located in batches, `forEachLocated`), none kept. */
async function locateDocs(plan: ShardPlan, t: ShardTerm, work: WorkBudget, seen: Set<number>): Promise<void> {
  const reader = fieldReader(plan.shard, t.probe.term.field);
  for (const { lo, hi } of t.found) await forEachLocated(reader, lo, hi, work, (_rank, { doc }) => seen.add(doc));
}

/** What a shard without any driver occurrence contributes: no candidate, nothing located. */
const NO_CANDIDATES: readonly number[] = Object.freeze([]);
const NOTHING_LOCATED: ReadonlyMap<TermNode, LocatedTerm> = new Map();

/**
 * Step 2, exact: per shard, the articles holding a driver occurrence (one `locate` each) that pass `keep`, with the
 * drivers' occurrences kept as hits, and every other term located too where that is cheaper than searching the
 * candidates' text for it (`path` forces one way, for tests). One async function over all shards, awaiting only when
 * the budget asks for a pause: an await per shard was a measurable part of a rare query over 83 shards.
 */
export async function candidateArticles(
  plans: readonly ShardPlan[],
  keep: (shard: number, doc: number) => boolean,
  work: WorkBudget,
  path: EvaluationPath = 'auto',
): Promise<Candidates> {
  const out: (readonly number[])[] = [];
  const located: ReadonlyMap<TermNode, LocatedTerm>[] = [];
  let bytes = 0;
  // Occurrences kept as hits so far (memory), against LOCATED_HITS_MAX.
  let kept = 0;
  for (let i = 0; i < plans.length; i++) {
    const plan = plans[i] as ShardPlan;
    // Most shards of a rare query hold no driver occurrence (an AND term absent there): nothing to allocate or walk.
    if (plan.located === 0) {
      out.push(NO_CANDIDATES);
      located.push(NOTHING_LOCATED);
      continue;
    }
    const terms = new Map<TermNode, LocatedTerm>();
    const seen = new Set<number>();
    for (const d of plan.drivers) {
      const t = plan.terms.get(d) as ShardTerm;
      const hits =
        path !== 'text' && locatable(t) && kept + t.size <= LOCATED_HITS_MAX
          ? new LocatedTerm(d, t, fieldReader(plan.shard, d.field))
          : null;
      if (hits === null) await locateDocs(plan, t, work, seen);
      else {
        kept += t.size;
        terms.set(d, hits);
        await locateInto(hits, t, work);
        for (const doc of hits.docs()) seen.add(doc);
      }
    }
    const docs: number[] = [];
    for (const doc of seen) if (keep(i, doc)) docs.push(doc);
    docs.sort((a, b) => a - b);
    const fieldBytes = new Map<TermField, number>();
    for (const field of plan.fields) {
      const reader = fieldReader(plan.shard, field);
      let n = 0;
      for (const doc of docs) n += reader.documentLength(doc);
      fieldBytes.set(field, n);
      bytes += n;
    }
    if (path !== 'text' && docs.length > 0) {
      for (const [node, t] of plan.terms) {
        if (terms.has(node) || !locatable(t) || kept + t.size > LOCATED_HITS_MAX) continue;
        const scanned = fieldBytes.get(node.field) ?? 0;
        const kind = fieldReader(plan.shard, node.field).kind ?? 'sa';
        if (path === 'auto' && !cheaperToLocate(kind, t.size, scanned, t.found.length)) continue;
        // A term absent from the shard costs nothing to locate, and spares every candidate a search for it.
        const hits = new LocatedTerm(node, t, fieldReader(plan.shard, node.field));
        kept += t.size;
        terms.set(node, hits);
        await locateInto(hits, t, work);
      }
    }
    out.push(docs);
    located.push(terms);
  }
  return { docs: out, bytes, located };
}
