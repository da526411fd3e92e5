/**
 * Which view a search box input gets: a plain phrase keeps the occurrence view (find, examine, concordance); an input
 * written in the query language (search-v2/DESIGN.md, "Query language") gets the article-level view.
 */

/** Operator words and NEAR/n, as whole whitespace-separated tokens, upper case as the grammar writes them. */
const OPERATOR_TOKEN = /^(?:AND|OR|NOT|NEAR\/\d+)$/;

/**
 * True when the input uses the query language: quotes, parentheses, an operator word, a `word*` prefix or `title:`.
 * Several words without any of these are one plain phrase, as before (`oil prices` is the exact phrase).
 * @example usesQueryLanguage('oil AND prices') // true; usesQueryLanguage('oil prices') // false
 */
export function usesQueryLanguage(input: string): boolean {
  if (/["()]/.test(input)) return true;
  return input
    .split(/\s+/)
    .some((t) => OPERATOR_TOKEN.test(t) || /^\p{L}[\p{L}\p{N}]*\*$/u.test(t) || t.startsWith('title:'));
}

/** The input with spaces trimmed from its ends, and whether any were (the page says so: issue 29 bug 8). */
export function trimmedPhrase(input: string): { readonly phrase: string; readonly trimmed: boolean } {
  const phrase = input.trim();
  return { phrase, trimmed: phrase !== input && phrase !== '' };
}
