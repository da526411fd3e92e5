import type { ArticleMetadata, QueryArticle } from '../api/types.ts';
import { articleKey } from '../search/article-merge.ts';
import { cardMeta, leadWords, metadataText, safeHref } from '../view/article-view.ts';
import { citationButton } from '../view/citation-button.ts';
import { h } from '../view/dom.ts';
import { copiesDisclosure, type CopiesLoader } from './copies-list.ts';

const NO_METADATA: ArticleMetadata = {};

/**
 * One article of a query-language search: heading, source and dates, and its first match in context as the search
 * answer sent it (no further request), with Copy citation. An untitled article is headed by that context's words.
 * With dedupe and `copies`, "and N copies" lists the story's other articles on demand (copies-list.ts).
 */
export function renderQueryCard(a: QueryArticle, release: string, copies?: CopiesLoader): HTMLElement {
  const m = a.metadata ?? NO_METADATA;
  const title = metadataText(m, 'title');
  const href = safeHref(metadataText(m, 'url'));
  const source = metadataText(m, 'sitename') ?? metadataText(m, 'hostname') ?? 'Unknown source';
  const { left, match, right } = a.first;
  // The context starts inside the article unless the match is at most its width from the start.
  const cutStart = a.first.offset > new TextEncoder().encode(left).length;
  const lead = title === null ? leadWords(`${left}${match}${right}`, cutStart) : null;
  const heading = h('span', { class: title === null ? 'untitled' : undefined }, title ?? lead);
  const citationBox = h('div', { class: 'citation-box' });
  return h(
    'article',
    { class: 'result', 'data-key': articleKey(a.year, a.doc_ix) },
    h(
      'header',
      {},
      h('h3', {}, href ? h('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank' }, heading) : heading),
    ),
    ...cardMeta(m, source, href),
    h('p', { class: 'snippet' }, cutStart ? `…${left}` : left, h('mark', {}, match), right === '' ? '' : `${right}…`),
    h('p', { class: 'muted first-match' }, `First match of ${a.first.term}`),
    a.copies !== undefined && a.copies > 1 && a.story !== undefined && copies !== undefined
      ? copiesDisclosure({ ...a, copies: a.copies, story: a.story }, copies)
      : null,
    h(
      'div',
      { class: 'actions' },
      citationButton(m, release, () => lead, citationBox),
    ),
    citationBox,
  );
}
