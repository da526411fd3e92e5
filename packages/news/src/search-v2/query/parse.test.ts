import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { V2Error } from '../errors.ts';
import { errorOf } from '../v2-error.fixture.ts';
import { assertEvaluable, canonicalText, parseQuery, parseQueryJson, type QueryNode, type TermNode } from './index.ts';

const word = fc.stringMatching(/^[a-zäöüß0-9]{1,6}$/u);
const term: fc.Arbitrary<TermNode> = fc.oneof(
  fc.record({ text: word, prefix: fc.boolean() }).map(({ text, prefix }): TermNode => ({
    type: 'term',
    text,
    phrase: false,
    prefix,
    field: 'body',
    wildcard_word: false,
  })),
  fc
    .array(fc.oneof(word, fc.constant('*'), fc.constant('AND')), { minLength: 1, maxLength: 3 })
    .map((ws): TermNode => ({
      type: 'term',
      text: ws.join(' '),
      phrase: true,
      prefix: false,
      field: 'body',
      wildcard_word: ws.includes('*'),
    })),
);
const { node: tree } = fc.letrec<{ node: QueryNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    term,
    fc.record({ type: fc.constant('near' as const), distance: fc.nat(50), left: term, right: term }),
    fc.record({ type: fc.constant('not' as const), child: tie('node') }),
    fc.record({
      type: fc.constantFrom('and' as const, 'or' as const),
      children: fc.array(tie('node'), { minLength: 2, maxLength: 3 }),
    }),
  ),
}));

describe('parseQuery', () => {
  it('reads back the tree from its canonical text (property)', () => {
    fc.assert(
      fc.property(tree, (t) => {
        expect(parseQuery(canonicalText(t)).tree).toEqual(t);
      }),
      { numRuns: 500 },
    );
  });

  it('answers any input with a tree or a positioned V2Error, never another exception (property)', () => {
    const piece = fc.constantFrom(
      'oil',
      'AND',
      'OR',
      'NOT',
      'NEAR/3',
      'NEAR/',
      '(',
      ')',
      '"',
      ' ',
      'econ*',
      '*',
      'title:',
      '"a b"',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const source = pieces.join(' ');
        try {
          const parsed = parseQuery(source);
          expect(parseQuery(canonicalText(parsed.tree)).tree).toEqual(parsed.tree);
        } catch (e) {
          expect(e).toBeInstanceOf(V2Error);
          expect((e as V2Error).status).toBe(422);
          expect(typeof (e as V2Error).context['position']).toBe('number');
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('takes adjacency as AND and binds AND tighter than OR', () => {
    expect(canonicalText(parseQuery('Merkel (Flüchtling OR Migration)').tree)).toBe(
      'Merkel AND (Flüchtling OR Migration)',
    );
    expect(canonicalText(parseQuery('a b OR c').tree)).toBe('a AND b OR c');
    expect(parseQuery('a b OR c').tree).toMatchObject({
      type: 'or',
      children: [{ type: 'and' }, { type: 'term', text: 'c' }],
    });
  });

  it('parses NOT, NEAR/n and prefixes', () => {
    expect(parseQuery('"oil prices" NOT "olive oil"').tree).toMatchObject({
      type: 'and',
      children: [{ text: 'oil prices' }, { type: 'not', child: { text: 'olive oil' } }],
    });
    expect(parseQuery('climate NEAR/10 protest').tree).toEqual({
      type: 'near',
      distance: 10,
      left: expect.objectContaining({ text: 'climate' }),
      right: expect.objectContaining({ text: 'protest' }),
    });
    expect(parseQuery('econom*').tree).toMatchObject({ type: 'term', text: 'econom', prefix: true });
  });

  it('trims stray spaces in phrases and says so', () => {
    const parsed = parseQuery('" oil prices "');
    expect(parsed.tree).toMatchObject({ text: 'oil prices', phrase: true });
    expect(parsed.notes).toEqual(['leading or trailing spaces removed from the phrase at position 1']);
    expect(canonicalText(parsed.tree)).toBe('"oil prices"');
  });

  it('writes a literal operator quoted', () => {
    expect(parseQuery('"AND"').tree).toMatchObject({ type: 'term', text: 'AND' });
    expect(canonicalText(parseQuery('"AND" OR x').tree)).toBe('"AND" OR x');
  });

  it('reports syntax errors with a position and a plain message', () => {
    const missing = errorOf(() => parseQuery('oil AND (prices OR gas'));
    expect(missing.detail).toBe('missing closing parenthesis for the one at position 9');
    expect(missing.context).toEqual({ position: 9 });
    expect(errorOf(() => parseQuery('oil "prices')).detail).toBe('missing closing quote for the one at position 5');
    expect(errorOf(() => parseQuery('oil )')).detail).toBe('unexpected closing parenthesis at position 5');
    expect(errorOf(() => parseQuery('oil AND')).detail).toBe(
      'AND at position 5 needs a word, phrase or group after it',
    );
    expect(errorOf(() => parseQuery('OR oil')).detail).toBe('OR at position 1 needs a word, phrase or group before it');
    expect(errorOf(() => parseQuery('e*con')).detail).toMatch(
      /^"\*" at position 2 is only allowed at the end of a word/,
    );
    expect(errorOf(() => parseQuery('   ')).detail).toMatch(/the query is empty/);
    expect(errorOf(() => parseQuery(`${'('.repeat(5000)}a${')'.repeat(5000)}`)).detail).toBe(
      'the query nests parentheses or NOTs more than 32 levels deep at position 33',
    );
    expect(errorOf(() => parseQuery(`a ${'NOT '.repeat(3000)}b`)).code).toBe('invalid_query');
  });
});

describe('assertEvaluable', () => {
  it('refuses NOT-only queries and an OR with a NOT branch', () => {
    expect(errorOf(() => assertEvaluable(parseQuery('NOT oil').tree)).detail).toMatch(/only of NOT terms/);
    expect(errorOf(() => assertEvaluable(parseQuery('gas OR NOT oil').tree)).code).toBe('invalid_query');
    expect(() => assertEvaluable(parseQuery('gas NOT oil').tree)).not.toThrow();
  });

  it('admits title: terms, NEAR only between two terms of one field, and a * phrase only with a literal word', () => {
    expect(parseQuery('title:"oil prices"').tree).toMatchObject({ field: 'title', text: 'oil prices' });
    expect(() => assertEvaluable(parseQuery('title:oil AND prices NOT title:olive').tree)).not.toThrow();
    expect(() => assertEvaluable(parseQuery('title:oil NEAR/2 title:prices OR oil NEAR/2 prices').tree)).not.toThrow();
    const mixed = errorOf(() => assertEvaluable(parseQuery('gas OR (title:oil NEAR/3 prices)').tree));
    expect(mixed.code).toBe('invalid_query');
    expect(mixed.detail).toMatch(
      /^NEAR\/3 joins a headline term and an article term \(title:oil NEAR\/3 prices\): .*put title: on both terms/,
    );
    expect(parseQuery('"oil * prices"').tree).toMatchObject({ wildcard_word: true });
    expect(() => assertEvaluable(parseQuery('"oil * prices"').tree)).not.toThrow();
    expect(errorOf(() => assertEvaluable(parseQuery('" * "').tree)).detail).toMatch(/needs at least one word besides/);
  });
});

describe('parseQueryJson', () => {
  it('accepts the tree a parse produced, and refuses a malformed node naming its path', () => {
    const t = parseQuery('a (b OR c*) NOT "d e" f NEAR/2 g').tree;
    expect(parseQueryJson(JSON.parse(JSON.stringify(t)))).toEqual(t);
    expect(
      errorOf(() => parseQueryJson({ type: 'and', children: [{ type: 'term', text: 'a' }, { type: 'x' }] })).detail,
    ).toBe('query_tree.children[1]: "type" must be one of term, and, or, not, near');
  });
});
