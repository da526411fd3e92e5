import { ApiError } from '../api/api-client.ts';
import { h } from '../view/dom.ts';

/** The 1-based character a 422 `invalid_query` points at, when it points at one. */
export function errorPosition(e: unknown): number | null {
  if (!(e instanceof ApiError) || e.code !== 'invalid_query') return null;
  const p = (e.body as { position?: unknown } | null)?.position;
  return typeof p === 'number' && Number.isInteger(p) && p >= 1 ? p : null;
}

/** Refusals of a query-language search in the query's words (others go to the page's general error path). */
export function queryRefusal(e: unknown): string | null {
  if (!(e instanceof ApiError) || e.status !== 422) return null;
  switch (e.code) {
    case 'invalid_query':
      return `The query could not be read: ${e.message}.`;
    case 'query_too_complex':
      return `The query has too many terms or a word* that stands for too many words: ${e.message}. Use fewer terms or a longer prefix.`;
    case 'query_too_expensive':
      return 'This query takes too long to answer exactly. Add a rarer term with AND, narrow the crawl years, or add filters.';
    case 'stories_unavailable':
      return 'This corpus cannot count stories (it was built without them, or its years are split over several servers). Choose “every article” under Count stories, not copies.';
    default:
      return null;
  }
}

/**
 * The refused query with the character it concerns marked, so a reader sees where to look (the box's caret goes
 * there too). Positions count characters (code points), as the server's do.
 */
export function markedQuery(query: string, position: number): HTMLElement {
  const chars = [...query];
  const at = Math.min(position - 1, chars.length);
  const marked = chars[at] ?? ' ';
  return h(
    'p',
    { class: 'query-error-at' },
    h('span', { class: 'visually-hidden' }, `At character ${position}: `),
    h('code', {}, chars.slice(0, at).join(''), h('mark', {}, marked), chars.slice(at + 1).join('')),
  );
}

/** Character position (1-based, code points) as a UTF-16 index for the box's caret. */
export function caretIndex(query: string, position: number): number {
  return [...query].slice(0, Math.max(0, position - 1)).join('').length;
}
