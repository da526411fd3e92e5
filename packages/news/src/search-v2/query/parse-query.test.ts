import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { errorOf } from '../v2-error.fixture.ts';
import { parseQuery } from './parse-query.js';
import { printQuery } from './print-query.js';
import type { QueryNode } from './types.js';

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/).filter((w) => w !== 'title');
const field = fc.constantFrom('body' as const, 'title' as const);
const leaf: fc.Arbitrary<QueryNode> = fc.oneof(
  fc.record({ kind: fc.constant('term' as const), word, prefix: fc.boolean(), field }),
  fc.record({
    kind: fc.constant('phrase' as const),
    words: fc.array(fc.option(word, { nil: null, freq: 4 }), { minLength: 1, maxLength: 4 }).filter((ws) => ws.some((w) => w !== null)),
    field,
  }),
);
const tree: fc.Arbitrary<QueryNode> = fc.letrec<{ node: QueryNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record({ kind: fc.constant('and' as const), children: fc.array(tie('node'), { minLength: 2, maxLength: 3 }) }),
    fc.record({ kind: fc.constant('or' as const), children: fc.array(tie('node'), { minLength: 2, maxLength: 3 }) }),
    fc.record({ kind: fc.constant('not' as const), child: tie('node') }),
    fc.record({ kind: fc.constant('near' as const), left: tie('node'), right: tie('node'), distance: fc.integer({ min: 1, max: 1000 }) }),
  ),
})).node;

describe('parseQuery', () => {
  it('gives back every random tree from its canonical text', () => {
    fc.assert(fc.property(tree, (t) => {
      expect(parseQuery(printQuery(t)).tree).toEqual(t);
    }), { numRuns: 500 });
  });

  it('reads adjacency as AND, OR binding looser, and NOT binding tighter', () => {
    expect(parseQuery('war peace OR NOT famine').canonical).toBe('(war AND peace) OR (NOT famine)');
  });

  it('reads NEAR, prefixes, title: and * inside a phrase', () => {
    const parsed = parseQuery('title:"climate * change" NEAR/5 flood*');
    expect(parsed.tree).toEqual({
      kind: 'near',
      distance: 5,
      left: { kind: 'phrase', words: ['climate', null, 'change'], field: 'title' },
      right: { kind: 'term', word: 'flood', prefix: true, field: 'body' },
    });
  });

  it('trims a phrase and says so in a note', () => {
    const parsed = parseQuery('" cold war "');
    expect(parsed.canonical).toBe('"cold war"');
    expect(parsed.notes).toEqual(['the phrase at position 0 was trimmed to "cold war"']);
  });

  it('names the position of a missing closing parenthesis', () => {
    const error = errorOf(() => parseQuery('(war OR peace'));
    expect(error.code).toBe('invalid_query');
    expect(error.detail).toBe('missing closing parenthesis after position 8 (opened at position 0)');
    expect(error.context).toEqual({ position: 0 });
  });

  it.each([
    ['', 'the query is empty'],
    ['war AND', 'missing term after position 4 at the end of the query'],
    ['"cold war', 'missing closing quote for the phrase opened at position 0'],
    ['war )', "unexpected ')' at position 4"],
    ['a NEAR/0 b', 'NEAR distance must be 1 to 1000, got 0 at position 2'],
    ['"* *"', 'phrase at position 0 has no word besides *'],
    ['title: OR', 'title: at position 0 must be followed by a word or a quoted phrase'],
  ])('refuses %j with a plain message', (text, detail) => {
    expect(errorOf(() => parseQuery(text)).detail).toBe(detail);
  });
});
