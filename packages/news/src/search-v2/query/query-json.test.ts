import { describe, expect, it } from 'vitest';
import { errorOf } from '../v2-error.fixture.ts';
import { parseQuery } from './parse-query.js';
import { parseQueryJson } from './query-json.js';

describe('parseQueryJson', () => {
  it('reads the same tree the text form gives, with defaults filled in', () => {
    const json = {
      kind: 'or',
      children: [
        { kind: 'near', distance: 3, left: { kind: 'term', word: 'Flood', prefix: true }, right: { kind: 'phrase', words: ['cold', null] } },
        { kind: 'not', child: { kind: 'term', word: 'war', field: 'title' } },
      ],
    };
    const parsed = parseQueryJson(json);
    expect(parsed.canonical).toBe('(flood* NEAR/3 "cold *") OR (NOT title:war)');
    expect(parsed.tree).toEqual(parseQuery(parsed.canonical).tree);
  });

  it.each([
    [{ kind: 'and', children: [{ kind: 'term', word: 'a' }] }, 'query.children: must be an array of at least two queries'],
    [{ kind: 'term', word: 'two words' }, "query.word: must be one word (letters, digits, _ ' -)"],
    [{ kind: 'near', distance: 0, left: {}, right: {} }, 'query.distance: must be an integer from 1 to 1000'],
    [{ kind: 'not', child: { kind: 'xor' } }, "query.child.kind: must be one of 'term', 'phrase', 'and', 'or', 'not', 'near'"],
    [{ kind: 'phrase', words: [null] }, 'query.words: needs at least one word besides null (*)'],
  ])('refuses %j naming the path', (value, detail) => {
    const error = errorOf(() => parseQueryJson(value));
    expect(error.code).toBe('invalid_query');
    expect(error.detail).toBe(detail);
  });
});
