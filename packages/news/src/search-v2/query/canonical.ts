import { NEAR_PATTERN, OPERATOR_WORDS, type QueryNode, type TermNode } from './ast.ts';

const BARE_WORD = /^[^\s()"*]+$/u;

/** A term as the text form writes it: bare when that reads back the same, quoted otherwise. */
function termText(t: TermNode): string {
  const bare =
    !t.phrase &&
    BARE_WORD.test(t.text) &&
    !OPERATOR_WORDS.has(t.text) &&
    !NEAR_PATTERN.test(t.text) &&
    !t.text.startsWith('NEAR/') &&
    !t.text.startsWith('title:');
  const body = bare ? `${t.text}${t.prefix ? '*' : ''}` : `"${t.text}"`;
  return t.field === 'title' ? `title:${body}` : body;
}

/** Precedence, loosest first; a child looser than its parent is parenthesised. */
const LEVEL = { or: 0, and: 1, not: 2, near: 3, term: 4 } as const;

function wrap(child: QueryNode, parentLevel: number): string {
  const text = canonicalText(child);
  return LEVEL[child.type] <= parentLevel ? `(${text})` : text;
}

/**
 * The canonical text form of a tree: operators upper case and explicit (`AND` between adjacent operands), single
 * spaces, parentheses only where precedence needs them. Parsing it gives back the same tree.
 * @example canonicalText(parseQuery('oil  prices OR gas').tree) // 'oil AND prices OR gas'
 */
export function canonicalText(node: QueryNode): string {
  switch (node.type) {
    case 'term':
      return termText(node);
    case 'near':
      return `${termText(node.left)} NEAR/${node.distance} ${termText(node.right)}`;
    case 'not':
      return `NOT ${wrap(node.child, LEVEL.not - 1)}`;
    case 'and':
      return node.children.map((c) => wrap(c, LEVEL.and)).join(' AND ');
    case 'or':
      return node.children.map((c) => wrap(c, LEVEL.or)).join(' OR ');
  }
}
