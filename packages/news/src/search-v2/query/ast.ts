/**
 * The typed tree of a news query (issue 27). It is also the query's JSON form: plain objects tagged by `type`,
 * so a program can send or read a query without writing the text syntax.
 */

/** Where a term is looked for: the article body, or (not built yet) the headline. */
export type TermField = 'body' | 'title';

/** One searchable unit: a bare word or a quoted phrase, matched as bytes with the request's matching options. */
export interface TermNode {
  readonly type: 'term';
  /** The text looked for, without quotes and without a trailing prefix `*`. */
  readonly text: string;
  /** True for a quoted phrase (only changes how the canonical form is written). */
  readonly phrase: boolean;
  /** `word*`: every word starting with `text`. */
  readonly prefix: boolean;
  readonly field: TermField;
  /** True when the phrase holds `*` as a whole word (exactly one word): parsed, not evaluated yet. */
  readonly wildcard_word: boolean;
}

export interface AndNode {
  readonly type: 'and';
  readonly children: readonly QueryNode[];
}
export interface OrNode {
  readonly type: 'or';
  readonly children: readonly QueryNode[];
}
export interface NotNode {
  readonly type: 'not';
  readonly child: QueryNode;
}
/** Both terms in one article, their first words at most `distance` words apart, in either order. */
export interface NearNode {
  readonly type: 'near';
  readonly distance: number;
  readonly left: TermNode;
  readonly right: TermNode;
}

export type QueryNode = TermNode | AndNode | OrNode | NotNode | NearNode;

/** The words that are operators in the text form (a literal one is written quoted: `"AND"`). */
export const OPERATOR_WORDS: ReadonlySet<string> = new Set(['AND', 'OR', 'NOT']);
export const NEAR_PATTERN = /^NEAR\/(\d+)$/;

/** Every term of a tree, left to right. */
export function termsOf(node: QueryNode): TermNode[] {
  switch (node.type) {
    case 'term':
      return [node];
    case 'and':
    case 'or':
      return node.children.flatMap(termsOf);
    case 'not':
      return termsOf(node.child);
    case 'near':
      return [node.left, node.right];
  }
}
