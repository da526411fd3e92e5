/** Random queries for the search property tests: `a op (b op c)` over given words, each maybe a prefix. */
import fc from 'fast-check';

/**
 * `a OP (b OP c)` with OP among AND, OR, NOT (and NEAR/n as the first), a word possibly `word*` (never a quoted
 * phrase). A NEAR keeps its right side a single term, as the grammar requires.
 */
export function randomQuery(words: readonly string[], near: number): fc.Arbitrary<string> {
  const term = fc
    .record({ w: fc.constantFrom(...words), prefix: fc.boolean() })
    .map(({ w, prefix }) => `${w}${prefix && !w.startsWith('"') ? '*' : ''}`);
  const nearOp = ` NEAR/${near} `;
  return fc
    .tuple(
      term,
      fc.constantFrom(' AND ', ' OR ', ' NOT ', nearOp),
      term,
      fc.constantFrom(' OR ', ' AND ', ' NOT '),
      term,
    )
    .map(([a, o1, b, o2, c]) => (o1 === nearOp ? `${a}${o1}${b}${o2}${c}` : `${a}${o1}(${b}${o2}${c})`));
}
