import { V2Error } from '../errors.js';
import { printQuery } from './print-query.js';
import { MAX_NEAR_DISTANCE, type ParsedQuery, type QueryField, type QueryNode } from './types.js';

/*
 * Grammar (positions in errors are 0-based character offsets into the text):
 *   or      := and ('OR' and)*
 *   and     := unary (['AND'] unary)*          adjacency means AND
 *   unary   := 'NOT' unary | near
 *   near    := primary ('NEAR/' n primary)*    left-associative
 *   primary := '(' or ')' | ['title:'] (word ['*'] | '"' words '"')
 */
type Token =
  | { readonly type: 'word'; readonly text: string; readonly prefix: boolean; readonly at: number }
  | { readonly type: 'phrase'; readonly raw: string; readonly at: number }
  | { readonly type: 'op'; readonly op: 'AND' | 'OR' | 'NOT' | '(' | ')' | 'title:'; readonly at: number }
  | { readonly type: 'near'; readonly distance: number; readonly at: number };

const WORD = /[\p{L}\p{N}_'-]+/uy;

function syntaxError(message: string, position: number): V2Error {
  return new V2Error('invalid_query', message, { position });
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] ?? '';
    if (/\s/u.test(c)) {
      i += 1;
    } else if (c === '(' || c === ')') {
      tokens.push({ type: 'op', op: c, at: i });
      i += 1;
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw syntaxError(`missing closing quote for the phrase opened at position ${i}`, i);
      tokens.push({ type: 'phrase', raw: text.slice(i + 1, end), at: i });
      i = end + 1;
    } else {
      const near = /NEAR\/(\d+)/y;
      near.lastIndex = i;
      const n = near.exec(text);
      if (n) {
        tokens.push({ type: 'near', distance: Number(n[1]), at: i });
        i = near.lastIndex;
        continue;
      }
      WORD.lastIndex = i;
      const m = WORD.exec(text);
      if (!m) throw syntaxError(`unexpected character '${c}' at position ${i}`, i);
      const word = m[0];
      let end = WORD.lastIndex;
      if (word === 'title' && text[end] === ':') {
        tokens.push({ type: 'op', op: 'title:', at: i });
        i = end + 1;
        continue;
      }
      if (word === 'AND' || word === 'OR' || word === 'NOT') {
        tokens.push({ type: 'op', op: word, at: i });
      } else {
        const prefix = text[end] === '*';
        if (prefix) end += 1;
        tokens.push({ type: 'word', text: word.toLowerCase(), prefix, at: i });
      }
      i = end;
    }
  }
  return tokens;
}

class Parser {
  private i = 0;
  readonly notes: string[] = [];
  constructor(
    private readonly tokens: readonly Token[],
    private readonly length: number,
  ) {}

  parse(): QueryNode {
    if (this.tokens.length === 0) throw syntaxError('the query is empty', 0);
    const tree = this.or();
    const extra = this.tokens[this.i];
    if (extra) throw syntaxError(`unexpected ${describe(extra)} at position ${extra.at}`, extra.at);
    return tree;
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private isOp(op: string): boolean {
    const t = this.peek();
    return t?.type === 'op' && t.op === op;
  }

  private or(): QueryNode {
    const children = [this.and()];
    while (this.isOp('OR')) {
      this.i += 1;
      children.push(this.and());
    }
    return children.length === 1 ? (children[0] as QueryNode) : { kind: 'or', children };
  }

  private and(): QueryNode {
    const children = [this.unary()];
    for (;;) {
      const t = this.peek();
      if (t === undefined || (t.type === 'op' && (t.op === 'OR' || t.op === ')'))) break;
      if (t.type === 'op' && t.op === 'AND') this.i += 1;
      children.push(this.unary());
    }
    return children.length === 1 ? (children[0] as QueryNode) : { kind: 'and', children };
  }

  private unary(): QueryNode {
    if (this.isOp('NOT')) {
      this.i += 1;
      return { kind: 'not', child: this.unary() };
    }
    let left = this.primary();
    for (let t = this.peek(); t?.type === 'near'; t = this.peek()) {
      if (t.distance < 1 || t.distance > MAX_NEAR_DISTANCE) {
        throw syntaxError(`NEAR distance must be 1 to ${MAX_NEAR_DISTANCE}, got ${t.distance} at position ${t.at}`, t.at);
      }
      this.i += 1;
      left = { kind: 'near', left, right: this.primary(), distance: t.distance };
    }
    return left;
  }

  private primary(): QueryNode {
    const t = this.peek();
    const before = this.tokens[this.i - 1];
    const after = before ? before.at : 0;
    if (t === undefined) throw syntaxError(`missing term after position ${after} at the end of the query`, this.length);
    this.i += 1;
    if (t.type === 'op' && t.op === '(') {
      const inner = this.or();
      if (!this.isOp(')')) {
        const last = this.tokens[this.i - 1]?.at ?? t.at;
        throw syntaxError(`missing closing parenthesis after position ${last} (opened at position ${t.at})`, t.at);
      }
      this.i += 1;
      return inner;
    }
    let field: QueryField = 'body';
    let term: Token | undefined = t;
    if (t.type === 'op' && t.op === 'title:') {
      field = 'title';
      term = this.peek();
      this.i += 1;
      if (term === undefined || (term.type !== 'word' && term.type !== 'phrase')) {
        throw syntaxError(`title: at position ${t.at} must be followed by a word or a quoted phrase`, t.at);
      }
    }
    if (term.type === 'word') return { kind: 'term', word: term.text, prefix: term.prefix, field };
    if (term.type === 'phrase') return this.phrase(term.raw, term.at, field);
    throw syntaxError(`expected a term at position ${term.at}, found ${describe(term)}`, term.at);
  }

  private phrase(raw: string, at: number, field: QueryField): QueryNode {
    const trimmed = raw.trim();
    if (trimmed !== raw) this.notes.push(`the phrase at position ${at} was trimmed to "${trimmed}"`);
    const parts = trimmed.split(/\s+/u).filter((p) => p !== '');
    if (parts.length === 0) throw syntaxError(`empty phrase at position ${at}`, at);
    const words = parts.map((p) => {
      if (p === '*') return null;
      if (!new RegExp(`^${WORD.source}$`, 'u').test(p)) {
        throw syntaxError(`phrase at position ${at}: '${p}' is not a word (use * alone for any one word)`, at);
      }
      return p.toLowerCase();
    });
    if (words.every((w) => w === null)) throw syntaxError(`phrase at position ${at} has no word besides *`, at);
    return { kind: 'phrase', words, field };
  }
}

function describe(t: Token): string {
  switch (t.type) {
    case 'word':
      return `word '${t.text}'`;
    case 'phrase':
      return 'phrase';
    case 'op':
      return `'${t.op}'`;
    case 'near':
      return `NEAR/${t.distance}`;
  }
}

/**
 * Parses the text form into a tree; throws `V2Error('invalid_query')` with `position` on a syntax error.
 * Example: `parseQuery('"climate change" NEAR/5 flood*').canonical` → `"climate change" NEAR/5 flood*`.
 */
export function parseQuery(text: string): ParsedQuery {
  const parser = new Parser(tokenize(text), text.length);
  const tree = parser.parse();
  return { tree, canonical: printQuery(tree), notes: parser.notes };
}
