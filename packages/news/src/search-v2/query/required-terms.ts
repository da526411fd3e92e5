/**
 * The terms every match of a query holds (a lone term, an AND's positive children, both sides of a NEAR), looked
 * up first when a shard is planned: once one is absent from a shard, nothing there can match and no other term is
 * looked up. On the real corpora most shards lack one term of a rare AND (`trade AND deficit AND Japan`: 78 of 83
 * shards), and each lookup is a binary search over the shard's suffix array, mostly cache misses.
 */
import type { QueryNode, TermNode } from './ast.ts';

function addRequired(node: QueryNode, out: TermNode[]): void {
  switch (node.type) {
    case 'term':
      if (!out.includes(node)) out.push(node);
      return;
    case 'near':
      addRequired(node.left, out);
      addRequired(node.right, out);
      return;
    case 'and':
      for (const c of node.children) if (c.type !== 'not') addRequired(c, out);
      return;
    // An OR needs only one of its branches, a NOT none of its terms.
    case 'or':
    case 'not':
      return;
  }
}

/**
 * The required terms of one request in the order to look them up: the one found absent in the most shards so far
 * first (shards of one corpus lack the same words), in query order until a shard has lacked one.
 *
 * @example const order = new RequiredTerms(parseQuery('a AND b').tree); order.absentIn(b); order.terms // [b, a]
 */
export class RequiredTerms {
  readonly #terms: TermNode[] = [];
  readonly #absences: number[] = [];

  constructor(tree: QueryNode) {
    addRequired(tree, this.#terms);
    for (let i = 0; i < this.#terms.length; i++) this.#absences.push(0);
  }

  get terms(): readonly TermNode[] {
    return this.#terms;
  }

  /** Records that `term` (one of `terms`) is absent from a shard, moving it ahead of the terms absent less often. */
  absentIn(term: TermNode): void {
    let i = this.#terms.indexOf(term);
    if (i < 0) return;
    const n = (this.#absences[i] as number) + 1;
    this.#absences[i] = n;
    while (i > 0 && (this.#absences[i - 1] as number) < n) {
      this.#terms[i] = this.#terms[i - 1] as TermNode;
      this.#absences[i] = this.#absences[i - 1] as number;
      i--;
    }
    this.#terms[i] = term;
    this.#absences[i] = n;
  }
}
