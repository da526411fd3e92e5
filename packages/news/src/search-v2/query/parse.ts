import type { NearNode, QueryNode, TermNode } from './ast.ts';
import { tokenize, type Token } from './lexer.ts';
import { syntaxError } from './syntax-error.ts';
import { V2Error } from '../errors.ts';

/** What parsing produced: the tree, and the visible normalisations it made (trimmed phrases). */
export interface ParsedQuery {
  readonly tree: QueryNode;
  /** Plain sentences, e.g. `leading or trailing spaces removed from the phrase at position 1`. */
  readonly notes: readonly string[];
}

/** Deepest nesting of parentheses and NOTs (a bound on the parser's recursion, far beyond any real query). */
export const MAX_QUERY_DEPTH = 32;

/** Longest NEAR distance accepted (words); larger ones are an article-level AND in practice. */
export const MAX_NEAR_DISTANCE = 1_000;

/**
 * Parses the text form. Precedence, loosest first: `OR`, then `AND` (written or implied by adjacency), then
 * `NOT`, then `NEAR/n` (between two terms). Throws 422 `invalid_query` with a position on a syntax error.
 * @example parseQuery('Merkel (Flüchtling OR Migration) NOT "olive oil"').tree.type // 'and'
 */
export function parseQuery(source: string): ParsedQuery {
  const tokens = tokenize(source);
  if (tokens.length === 0)
    throw new V2Error('invalid_query', 'the query is empty: write at least one word or "phrase"', { position: 1 });
  const notes: string[] = [];
  let next = 0;
  let depth = 0;
  const deeper = (t: Token) => {
    depth += 1;
    if (depth > MAX_QUERY_DEPTH)
      throw syntaxError(
        `the query nests parentheses or NOTs more than ${MAX_QUERY_DEPTH} levels deep at position ${t.at}`,
        t.at,
      );
  };
  const peek = (): Token | undefined => tokens[next];
  const endPosition = [...source].length;

  const term = (): TermNode => {
    const t = peek();
    if (t === undefined)
      throw syntaxError(`a word or phrase is missing at the end, after position ${endPosition}`, endPosition);
    if (t.kind !== 'word' && t.kind !== 'phrase')
      throw syntaxError(`expected a word or a phrase at position ${t.at}, found ${describe(t)}`, t.at);
    next += 1;
    return termOf(t, notes);
  };

  const near = (): QueryNode => {
    const t = peek();
    if (t?.kind === 'open') {
      next += 1;
      deeper(t);
      const inner = or();
      depth -= 1;
      const close = peek();
      if (close?.kind !== 'close')
        throw syntaxError(`missing closing parenthesis for the one at position ${t.at}`, t.at);
      next += 1;
      if (peek()?.kind === 'near')
        throw syntaxError(
          `NEAR at position ${peek()?.at} joins two words or phrases, not a parenthesised group`,
          peek()?.at ?? t.at,
        );
      return inner;
    }
    const left = term();
    const op = peek();
    if (op?.kind !== 'near') return left;
    next += 1;
    if (peek()?.kind === 'open')
      throw syntaxError(`NEAR at position ${op.at} joins two words or phrases, not a parenthesised group`, op.at);
    const right = term();
    if (op.distance > MAX_NEAR_DISTANCE)
      throw syntaxError(
        `NEAR/${op.distance} at position ${op.at} is beyond the largest distance, ${MAX_NEAR_DISTANCE} words`,
        op.at,
      );
    if (peek()?.kind === 'near')
      throw syntaxError(
        `NEAR at position ${peek()?.at} cannot be chained: write (a NEAR/n b) AND (b NEAR/n c)`,
        peek()?.at ?? op.at,
      );
    return { type: 'near', distance: op.distance, left, right } satisfies NearNode;
  };

  const not = (): QueryNode => {
    const t = peek();
    if (t?.kind !== 'not') return near();
    next += 1;
    deeper(t);
    const child = not();
    depth -= 1;
    return { type: 'not', child };
  };

  const startsOperand = (t: Token | undefined) =>
    t !== undefined && (t.kind === 'word' || t.kind === 'phrase' || t.kind === 'open' || t.kind === 'not');

  const and = (): QueryNode => {
    const children = [not()];
    for (;;) {
      const t = peek();
      if (t?.kind === 'and') {
        next += 1;
        if (!startsOperand(peek()))
          throw syntaxError(`AND at position ${t.at} needs a word, phrase or group after it`, t.at);
      } else if (!startsOperand(t)) break;
      children.push(not());
    }
    return children.length === 1 ? (children[0] as QueryNode) : { type: 'and', children };
  };

  const or = (): QueryNode => {
    const first = peek();
    if (first?.kind === 'or' || first?.kind === 'and' || first?.kind === 'near')
      throw syntaxError(`${describe(first)} at position ${first.at} needs a word, phrase or group before it`, first.at);
    const children = [and()];
    while (peek()?.kind === 'or') {
      const t = peek() as Token;
      next += 1;
      if (!startsOperand(peek()))
        throw syntaxError(`OR at position ${t.at} needs a word, phrase or group after it`, t.at);
      children.push(and());
    }
    return children.length === 1 ? (children[0] as QueryNode) : { type: 'or', children };
  };

  const tree = or();
  const rest = peek();
  if (rest !== undefined) {
    const message =
      rest.kind === 'close'
        ? `unexpected closing parenthesis at position ${rest.at}`
        : `unexpected ${describe(rest)} at position ${rest.at}`;
    throw syntaxError(message, rest.at);
  }
  return { tree, notes };
}

function termOf(t: Token & { kind: 'word' | 'phrase' }, notes: string[]): TermNode {
  const field = t.title ? 'title' : 'body';
  if (t.kind === 'phrase') {
    if (t.trimmed) notes.push(`leading or trailing spaces removed from the phrase at position ${t.at}`);
    const wildcardWord = t.text.split(/\s+/u).includes('*');
    return { type: 'term', text: t.text, phrase: true, prefix: false, field, wildcard_word: wildcardWord };
  }
  const star = t.text.indexOf('*');
  if (star !== -1 && (star !== t.text.length - 1 || star === 0)) {
    throw syntaxError(
      `"*" at position ${t.at + star} is only allowed at the end of a word (econom*) or as a whole word inside a phrase`,
      t.at + star,
    );
  }
  const prefix = star !== -1;
  return {
    type: 'term',
    text: prefix ? t.text.slice(0, -1) : t.text,
    phrase: false,
    prefix,
    field,
    wildcard_word: false,
  };
}

function describe(t: Token): string {
  switch (t.kind) {
    case 'open':
      return '"("';
    case 'close':
      return '")"';
    case 'and':
      return 'AND';
    case 'or':
      return 'OR';
    case 'not':
      return 'NOT';
    case 'near':
      return `NEAR/${t.distance}`;
    case 'word':
      return `"${t.text}"`;
    case 'phrase':
      return `"${t.text}"`;
  }
}
