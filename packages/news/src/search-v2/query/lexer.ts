import { NEAR_PATTERN, OPERATOR_WORDS } from './ast.ts';
import { syntaxError } from './syntax-error.ts';

/** A token of the text form; `at` is the 1-based character position of its first character. */
export type Token =
  | { readonly kind: 'open' | 'close'; readonly at: number }
  | { readonly kind: 'and' | 'or' | 'not'; readonly at: number }
  | { readonly kind: 'near'; readonly at: number; readonly distance: number }
  | { readonly kind: 'word'; readonly at: number; readonly text: string; readonly title: boolean }
  | {
      readonly kind: 'phrase';
      readonly at: number;
      readonly text: string;
      readonly title: boolean;
      readonly trimmed: boolean;
    };

const TITLE = 'title:';
const isSpace = (c: string) => /\s/u.test(c);
const endsWord = (c: string) => isSpace(c) || c === '(' || c === ')' || c === '"';

/** Splits the text form into tokens; an unterminated quote is a syntax error naming where it opened. */
export function tokenize(source: string): Token[] {
  const chars = [...source];
  const tokens: Token[] = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i] ?? '';
    const at = i + 1;
    if (isSpace(c)) {
      i += 1;
      continue;
    }
    if (c === '(' || c === ')') {
      tokens.push({ kind: c === '(' ? 'open' : 'close', at });
      i += 1;
      continue;
    }
    const title = chars.slice(i, i + TITLE.length).join('') === TITLE;
    const start = title ? i + TITLE.length : i;
    if (chars[start] === '"') {
      const close = chars.indexOf('"', start + 1);
      if (close === -1) throw syntaxError(`missing closing quote for the one at position ${start + 1}`, start + 1);
      const raw = chars.slice(start + 1, close).join('');
      const text = raw.trim();
      if (text.length === 0) throw syntaxError(`empty phrase at position ${start + 1}`, start + 1);
      tokens.push({ kind: 'phrase', at, text, title, trimmed: text !== raw });
      i = close + 1;
      continue;
    }
    let end = start;
    while (end < chars.length && !endsWord(chars[end] ?? ' ')) end += 1;
    const word = chars.slice(start, end).join('');
    if (word.length === 0) throw syntaxError(`"title:" at position ${at} must be followed by a word or a phrase`, at);
    i = end;
    const near = NEAR_PATTERN.exec(word);
    if (!title && near !== null) tokens.push({ kind: 'near', at, distance: Number(near[1]) });
    else if (!title && OPERATOR_WORDS.has(word)) tokens.push({ kind: word.toLowerCase() as 'and' | 'or' | 'not', at });
    else if (!title && word.startsWith('NEAR/'))
      throw syntaxError(`NEAR at position ${at} needs a number of words, as in NEAR/10`, at);
    else tokens.push({ kind: 'word', at, text: word, title });
  }
  return tokens;
}
