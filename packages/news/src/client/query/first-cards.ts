import type { ApiClient } from '../api/api-client.ts';
import type { QuerySearchResponse } from '../api/types.ts';
import { articleKey } from '../search/article-merge.ts';
import type { SearchState } from '../search/url-state.ts';
import { formatCount, plural, replaceChildren } from '../view/dom.ts';
import { renderQueryCard } from './query-card.ts';
import { QUERY_PAGE_SIZE } from './query-view.ts';

/**
 * A plain phrase as one term of the query language's JSON form (no quoting rules to get wrong); null for a phrase
 * with a lone `*` word, which the JSON form would read as a wildcard.
 */
export function phraseTerm(
  phrase: string,
): { type: 'term'; text: string; phrase: true; prefix: false; field: 'body' } | null {
  if (phrase.trim() === '' || phrase.trim().split(/\s+/u).includes('*')) return null;
  return { type: 'term', text: phrase, phrase: true, prefix: false, field: 'body' };
}

/** What the first cards showed: their articles (the scan's cards skip them) and the exact count of matching articles. */
export interface FirstCards {
  readonly keys: ReadonlySet<string>;
  readonly articles: number;
}

export interface FirstCardTargets {
  readonly list: HTMLElement;
  /** The total card's line for the exact article count. */
  readonly exact: HTMLElement;
  /** False once a newer search started. */
  current(): boolean;
  /** True once the scan stopped waiting and may have shown cards: then only the count is shown. */
  late(): boolean;
}

/**
 * Issue 29 bug 11: a filtered phrase search scans occurrences until enough pass the filters, which for a frequent
 * word took seconds before the first card. `POST /api/v2/search` with the phrase as one term and the filters gives
 * the first 25 matching articles and their exact number in one call, asked beside `find`, while the scan goes on as
 * before. Null for a phrase the JSON form cannot carry as one term.
 */
export function requestFirstCards(api: ApiClient, state: SearchState): Promise<QuerySearchResponse> | null {
  const term = phraseTerm(state.query);
  return term === null ? null : api.search({ ...state, queryTree: term, pageSize: QUERY_PAGE_SIZE });
}

/**
 * Shows the first cards and the exact count once `request` answers. A refusal (too expensive, an older server) or an
 * answer from another release leaves the page as it was: the scan's cards and the estimate still come.
 */
export async function showFirstCards(
  request: Promise<QuerySearchResponse> | null,
  release: string,
  to: FirstCardTargets,
): Promise<FirstCards | null> {
  let answer: QuerySearchResponse;
  try {
    if (request === null) return null;
    answer = await request;
  } catch {
    return null;
  }
  if (!to.current() || answer.index_version !== release) return null;
  to.exact.hidden = false;
  const late = to.late();
  replaceChildren(
    to.exact,
    `Exactly ${plural(answer.articles, 'article matches', 'articles match')} the filters (all checked)`,
    !late && answer.articles > answer.page.length
      ? `; the first ${formatCount(answer.page.length)} are listed first.`
      : '.',
  );
  if (late) return { keys: new Set(), articles: answer.articles };
  to.list.append(...answer.page.map((a) => renderQueryCard(a, release)));
  return { keys: new Set(answer.page.map((a) => articleKey(a.year, a.doc_ix))), articles: answer.articles };
}
