import { V2Error } from '../errors.ts';
import { MAX_NEAR_DISTANCE } from './parse.ts';
import type { QueryNode, TermNode } from './ast.ts';

/** Deepest JSON tree accepted (the text form is bounded by its length; JSON needs its own bound). */
const MAX_DEPTH = 32;

function refuse(path: string, message: string): never {
  throw new V2Error('invalid_query', `query_tree${path}: ${message}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function termOf(v: Record<string, unknown>, path: string): TermNode {
  const text = v['text'];
  if (typeof text !== 'string' || text.trim().length === 0) refuse(path, 'a term needs a non-empty "text"');
  for (const flag of ['phrase', 'prefix', 'wildcard_word'] as const) {
    if (v[flag] !== undefined && typeof v[flag] !== 'boolean') refuse(path, `"${flag}" must be true or false`);
  }
  const field = v['field'] ?? 'body';
  if (field !== 'body' && field !== 'title') refuse(path, '"field" must be "body" or "title"');
  const trimmed = text.trim();
  return {
    type: 'term',
    text: trimmed,
    phrase: v['phrase'] === true,
    prefix: v['prefix'] === true,
    field,
    wildcard_word: v['phrase'] === true && trimmed.split(/\s+/u).includes('*'),
  };
}

function nodeOf(v: unknown, path: string, depth: number): QueryNode {
  if (depth > MAX_DEPTH) refuse(path, `nested deeper than ${MAX_DEPTH} levels`);
  if (!isObject(v)) refuse(path, 'expected an object with a "type"');
  switch (v['type']) {
    case 'term':
      return termOf(v, path);
    case 'and':
    case 'or': {
      const children = v['children'];
      if (!Array.isArray(children) || children.length < 2)
        refuse(path, `"${v['type']}" needs "children": at least two nodes`);
      return { type: v['type'], children: children.map((c, i) => nodeOf(c, `${path}.children[${i}]`, depth + 1)) };
    }
    case 'not':
      return { type: 'not', child: nodeOf(v['child'], `${path}.child`, depth + 1) };
    case 'near': {
      const distance = v['distance'];
      if (!Number.isInteger(distance) || (distance as number) < 0 || (distance as number) > MAX_NEAR_DISTANCE)
        refuse(path, `"distance" must be an integer from 0 to ${MAX_NEAR_DISTANCE}`);
      const left = nodeOf(v['left'], `${path}.left`, depth + 1);
      const right = nodeOf(v['right'], `${path}.right`, depth + 1);
      if (left.type !== 'term' || right.type !== 'term') refuse(path, 'NEAR joins two terms');
      return { type: 'near', distance: distance as number, left, right };
    }
    default:
      return refuse(path, '"type" must be one of term, and, or, not, near');
  }
}

/**
 * Reads the JSON form of a query (the tree's own shape, see `ast.ts`), validating every node; phrases are trimmed
 * as in the text form.
 * @example parseQueryJson({ type: 'and', children: [{ type: 'term', text: 'oil' }, { type: 'term', text: 'prices' }] })
 */
export function parseQueryJson(value: unknown): QueryNode {
  return nodeOf(value, '', 0);
}
