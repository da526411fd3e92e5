/** Characters of a query shown in headings and legends; exports and the URL keep the whole query. */
export const SHOWN_QUERY_CHARS = 80;

/**
 * A query in curly quotes as headings, legends and status lines show it: a long one is cut visibly, at a
 * character boundary, with its full length said (issue 29 bug 10).
 * @example quotedQuery('oil prices') // '“oil prices”'
 * @example quotedQuery('x'.repeat(10000)) // '“xxx…xxx…” (10,000 characters)'
 */
export function quotedQuery(query: string, max = SHOWN_QUERY_CHARS): string {
  const chars = [...query];
  if (chars.length <= max) return `“${query}”`;
  return `“${chars.slice(0, max).join('').trimEnd()}…” (${chars.length.toLocaleString('en')} characters)`;
}
