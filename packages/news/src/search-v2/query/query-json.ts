import { V2Error } from '../errors.js';
import { printQuery } from './print-query.js';
import { MAX_NEAR_DISTANCE, type ParsedQuery, type QueryField, type QueryNode } from './types.js';

/*
 * The JSON form for programs is the tree itself (`types.ts`), `field` optional (default `body`), `prefix` optional
 * (default false). Validated here once, at the edge; errors name the JSON path of the offending node.
 */
function invalid(path: string, message: string): V2Error {
  return new V2Error('invalid_query', `${path}: ${message}`, { path });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const WORD = /^[\p{L}\p{N}_'-]+$/u;

function readWord(value: unknown, path: string): string {
  if (typeof value !== 'string' || !WORD.test(value)) throw invalid(path, 'must be one word (letters, digits, _ \' -)');
  return value.toLowerCase();
}

function readField(value: unknown, path: string): QueryField {
  if (value === undefined || value === 'body') return 'body';
  if (value === 'title') return 'title';
  throw invalid(path, "must be 'body' or 'title'");
}

function readChildren(value: unknown, path: string): QueryNode[] {
  if (!Array.isArray(value) || value.length < 2) throw invalid(path, 'must be an array of at least two queries');
  return value.map((child: unknown, i) => readNode(child, `${path}[${i}]`));
}

function readNode(value: unknown, path: string): QueryNode {
  if (!isRecord(value)) throw invalid(path, 'must be an object with a kind');
  switch (value['kind']) {
    case 'term': {
      const prefix = value['prefix'] ?? false;
      if (typeof prefix !== 'boolean') throw invalid(`${path}.prefix`, 'must be a boolean');
      return { kind: 'term', word: readWord(value['word'], `${path}.word`), prefix, field: readField(value['field'], `${path}.field`) };
    }
    case 'phrase': {
      const words = value['words'];
      if (!Array.isArray(words) || words.length === 0) throw invalid(`${path}.words`, 'must be a non-empty array');
      const read = words.map((w: unknown, i) => (w === null ? null : readWord(w, `${path}.words[${i}]`)));
      if (read.every((w) => w === null)) throw invalid(`${path}.words`, 'needs at least one word besides null (*)');
      return { kind: 'phrase', words: read, field: readField(value['field'], `${path}.field`) };
    }
    case 'and':
    case 'or':
      return { kind: value['kind'], children: readChildren(value['children'], `${path}.children`) };
    case 'not':
      return { kind: 'not', child: readNode(value['child'], `${path}.child`) };
    case 'near': {
      const distance = value['distance'];
      if (typeof distance !== 'number' || !Number.isInteger(distance) || distance < 1 || distance > MAX_NEAR_DISTANCE) {
        throw invalid(`${path}.distance`, `must be an integer from 1 to ${MAX_NEAR_DISTANCE}`);
      }
      return { kind: 'near', left: readNode(value['left'], `${path}.left`), right: readNode(value['right'], `${path}.right`), distance };
    }
    default:
      throw invalid(`${path}.kind`, "must be one of 'term', 'phrase', 'and', 'or', 'not', 'near'");
  }
}

/**
 * Validates the JSON form. Example: `parseQueryJson({kind:'term', word:'War'}).canonical` → `war`.
 */
export function parseQueryJson(value: unknown): ParsedQuery {
  const tree = readNode(value, 'query');
  return { tree, canonical: printQuery(tree), notes: [] };
}
