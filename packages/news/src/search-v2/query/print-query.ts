import type { QueryField, QueryNode } from './types.js';

/**
 * Canonical text form: explicit `AND`, every compound operand parenthesised, so `parseQuery(printQuery(t))` gives
 * `t` back. Example: `printQuery({kind:'not', child: term})` → `NOT war`.
 */
export function printQuery(node: QueryNode): string {
  switch (node.kind) {
    case 'term':
      return `${fieldPrefix(node.field)}${node.word}${node.prefix ? '*' : ''}`;
    case 'phrase':
      return `${fieldPrefix(node.field)}"${node.words.map((w) => w ?? '*').join(' ')}"`;
    case 'and':
      return node.children.map(operand).join(' AND ');
    case 'or':
      return node.children.map(operand).join(' OR ');
    case 'not':
      return `NOT ${operand(node.child)}`;
    case 'near':
      return `${operand(node.left)} NEAR/${node.distance} ${operand(node.right)}`;
  }
}

function fieldPrefix(field: QueryField): string {
  return field === 'title' ? 'title:' : '';
}

function operand(node: QueryNode): string {
  return node.kind === 'term' || node.kind === 'phrase' ? printQuery(node) : `(${printQuery(node)})`;
}
