import { V2Error } from '../errors.js';
import type { QueryField, QueryNode } from './types.js';

/** The fields a tree searches, so a caller can refuse one its release has no index for. */
export function fieldsOf(node: QueryNode): Set<QueryField> {
  switch (node.kind) {
    case 'term':
    case 'phrase':
      return new Set([node.field]);
    case 'and':
    case 'or':
      return new Set(node.children.flatMap((c) => [...fieldsOf(c)]));
    case 'not':
      return fieldsOf(node.child);
    case 'near':
      return new Set([...fieldsOf(node.left), ...fieldsOf(node.right)]);
  }
}

/**
 * Refuses a `title:` query when the release indexes no headlines: answering it from article text instead would be a
 * silent, wrong fallback. Example: `assertFieldsIndexed(parseQuery('title:war').tree, new Set(['body']))` throws.
 */
export function assertFieldsIndexed(node: QueryNode, indexed: ReadonlySet<QueryField>): void {
  if (fieldsOf(node).has('title') && !indexed.has('title')) {
    throw new V2Error(
      'headlines_not_indexed',
      'this release indexes article text only, not headlines; remove title: from the query or use a release built with headlines',
    );
  }
}
