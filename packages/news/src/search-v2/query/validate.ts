import { V2Error } from '../errors.ts';
import type { QueryNode } from './ast.ts';
import { termsOf } from './ast.ts';
import { literalSegments } from './wildcard-phrase.ts';

/**
 * True when the node, on its own, can only match articles that contain something (a positive term): what the
 * evaluator starts from. `NOT x` alone, or `a OR NOT b`, would mean "every article but…", which is refused.
 */
function anchored(node: QueryNode): boolean {
  switch (node.type) {
    case 'term': case 'near': return true;
    case 'not': return false;
    case 'and': return node.children.some(anchored);
    case 'or': return node.children.every(anchored);
  }
}

/**
 * Checks what the evaluator needs beyond syntax: the query is anchored by a positive term, and it uses no part of
 * the language that is parsed but not evaluated yet (`title:`): 422 for it; a `*` phrase needs a literal word.
 */
export function assertEvaluable(tree: QueryNode): void {
  if (!anchored(tree)) {
    throw new V2Error('invalid_query', 'a query made only of NOT terms (or an OR with a NOT branch) would match almost every article: combine NOT with a positive term, as in "oil prices" NOT "olive oil"');
  }
  for (const t of termsOf(tree)) {
    if (t.field === 'title') throw new V2Error('invalid_query', `title: (headline search, "${t.text}") is not supported yet: search the article body instead`);
    if (t.wildcard_word && literalSegments(t.text).length === 0) throw new V2Error('invalid_query', `the phrase "${t.text}" needs at least one word besides "*"`);
  }
}
