import { describe, expect, it } from 'vitest';
import { termsOf } from './ast.ts';
import { parseQuery } from './parse.ts';
import { RequiredTerms } from './required-terms.ts';

const texts = (order: RequiredTerms) => order.terms.map((t) => t.text);

describe('the terms every match needs, in lookup order', () => {
  it('takes terms, AND children and NEAR sides, never OR branches or NOT children', () => {
    expect(texts(new RequiredTerms(parseQuery('a AND (b OR c) AND NOT d AND e NEAR/3 f').tree))).toEqual([
      'a',
      'e',
      'f',
    ]);
    expect(texts(new RequiredTerms(parseQuery('a OR b').tree))).toEqual([]);
    expect(texts(new RequiredTerms(parseQuery('a AND (b AND c)').tree))).toEqual(['a', 'b', 'c']);
  });

  it('moves the term absent from the most shards first, ties keeping their order', () => {
    const tree = parseQuery('trade AND deficit AND Japan').tree;
    const order = new RequiredTerms(tree);
    const [trade, deficit, japan] = termsOf(tree);
    order.absentIn(japan!);
    expect(texts(order)).toEqual(['Japan', 'trade', 'deficit']);
    order.absentIn(deficit!);
    expect(texts(order)).toEqual(['Japan', 'deficit', 'trade']);
    order.absentIn(deficit!);
    expect(texts(order)).toEqual(['deficit', 'Japan', 'trade']);
    order.absentIn(trade!);
    expect(texts(order)).toEqual(['deficit', 'Japan', 'trade']);
  });
});
