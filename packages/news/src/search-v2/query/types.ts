/**
 * The typed tree of a news query (issue 27). The text form (`parse-query.ts`) and the JSON form (`query-json.ts`)
 * both produce it; `printQuery` gives the canonical text form echoed to clients.
 */
export type QueryField = 'body' | 'title';

/** A bare word; `prefix` means it was written `word*` and expands through the index. */
export interface TermNode {
  readonly kind: 'term';
  readonly word: string;
  readonly prefix: boolean;
  readonly field: QueryField;
}

/** A double-quoted phrase; `null` is a `*` standing for exactly one whole word. */
export interface PhraseNode {
  readonly kind: 'phrase';
  readonly words: readonly (string | null)[];
  readonly field: QueryField;
}

export interface AndNode {
  readonly kind: 'and';
  readonly children: readonly QueryNode[];
}

export interface OrNode {
  readonly kind: 'or';
  readonly children: readonly QueryNode[];
}

export interface NotNode {
  readonly kind: 'not';
  readonly child: QueryNode;
}

/** Both sides within `distance` words of each other, either order. */
export interface NearNode {
  readonly kind: 'near';
  readonly left: QueryNode;
  readonly right: QueryNode;
  readonly distance: number;
}

export type QueryNode = TermNode | PhraseNode | AndNode | OrNode | NotNode | NearNode;

/** What parsing returns: the tree, its canonical text, and notes such as a trimmed phrase. */
export interface ParsedQuery {
  readonly tree: QueryNode;
  readonly canonical: string;
  readonly notes: readonly string[];
}

/** Largest `NEAR/n` accepted: beyond it the positional check is no cheaper than an AND. */
export const MAX_NEAR_DISTANCE = 1000;
