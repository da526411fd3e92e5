import { V2Error } from '../errors.ts';
import type { NearNode, QueryNode } from './ast.ts';
import { canonicalText } from './canonical.ts';
import { termsOf } from './ast.ts';
import { literalSegments } from './wildcard-phrase.ts';

/**
 * True when the node, on its own, can only match articles that contain something (a positive term): what the
 * evaluator starts from. `NOT x` alone, or `a OR NOT b`, would mean "every article but…", which is refused.
 */
function anchored(node: QueryNode): boolean {
  switch (node.type) {
    case 'term':
    case 'near':
      return true;
    case 'not':
      return false;
    case 'and':
      return node.children.some(anchored);
    case 'or':
      return node.children.every(anchored);
  }
}

/** The NEAR nodes of a tree. */
function nears(node: QueryNode): NearNode[] {
  switch (node.type) {
    case 'term':
      return [];
    case 'near':
      return [node];
    case 'not':
      return nears(node.child);
    case 'and':
    case 'or':
      return node.children.flatMap(nears);
  }
}

/**
 * Checks what the evaluator needs beyond syntax: the query is anchored by a positive term; a `*` phrase needs a
 * literal word; a NEAR joins two terms of one field (a headline and the article body share no word positions).
 */
export function assertEvaluable(tree: QueryNode): void {
  if (!anchored(tree)) {
    throw new V2Error(
      'invalid_query',
      'a query made only of NOT terms (or an OR with a NOT branch) would match almost every article: combine NOT with a positive term, as in "oil prices" NOT "olive oil"',
    );
  }
  for (const t of termsOf(tree)) {
    if (t.wildcard_word && literalSegments(t.text).length === 0)
      throw new V2Error('invalid_query', `the phrase "${t.text}" needs at least one word besides "*"`);
  }
  for (const n of nears(tree)) {
    if (n.left.field !== n.right.field) {
      throw new V2Error(
        'invalid_query',
        `NEAR/${n.distance} joins a headline term and an article term (${canonicalText(n)}): a headline and the article text have no distance between their words; put title: on both terms (near in the headline) or on neither, or join them with AND`,
      );
    }
  }
}
