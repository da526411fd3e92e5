import type { QueryArticle, QueryCopiesResponse, QueryCopy } from '../api/types.ts';
import { articleKey } from '../search/article-merge.ts';
import { day, metadataText, safeHref } from '../view/article-view.ts';
import { formatCount, h, plural } from '../view/dom.ts';
import { plainError } from '../view/error-messages.ts';

/** Copies asked per page (the API allows up to 100). */
export const COPIES_PAGE_SIZE = 50;

/** The next page of one story's copies after `cursor` (null: the first page). */
export type CopiesLoader = (story: number, cursor: string | null) => Promise<QueryCopiesResponse>;

/**
 * A card's "and N copies" as a disclosure button: pressed, it loads the story's articles matching the same search
 * (`POST /api/v2/search/copies`, as many as the card counts: the card's own article among them, marked) and lists
 * them under the card by date with outlet, day and headline linking to the article in a new tab; "Show more" pages
 * on. How many more the whole corpus holds (`story_size`) is said, not listed. Loading and failure are said in the
 * list's status line, a failure with Retry.
 */
export function copiesDisclosure(a: QueryArticle & { copies: number; story: number }, load: CopiesLoader): HTMLElement {
  const others = a.copies - 1;
  const id = `copies-${a.year}-${a.doc_ix}`;
  const button = h(
    'button',
    { type: 'button', class: 'link-button copies-toggle', 'aria-expanded': 'false', 'aria-controls': id },
    `and ${others === 1 ? '1 copy' : `${formatCount(others)} copies`}`,
  );
  const list = h('ol', {
    class: 'copies-items',
    'aria-label': `The ${plural(a.copies, 'article', 'articles')} of this story, by date`,
  });
  const status = h('p', { class: 'copies-status muted', role: 'status' });
  const more = h('button', { type: 'button', class: 'ghost', hidden: true }, '');
  const region = h('div', { id, class: 'copies-list', hidden: true }, list, status, more);
  const own = articleKey(a.year, a.doc_ix);
  let cursor: string | null = null;
  let shown = 0;
  let started = false;

  const loadPage = (): void => {
    started = true;
    more.disabled = true;
    status.replaceChildren(shown === 0 ? 'Loading the copies…' : 'Loading more copies…');
    load(a.story, cursor).then(
      (page) => {
        const items = page.page.map((c) => copyItem(c, articleKey(c.year, c.doc_ix) === own));
        list.append(...items);
        // After "Show more" the reader goes on at the first new copy (the button may disappear under the focus).
        if (shown > 0) items[0]?.querySelector<HTMLElement>('a')?.focus();
        shown += page.page.length;
        cursor = page.next_cursor;
        const left = page.following - page.page.length;
        more.hidden = cursor === null;
        more.disabled = false;
        more.textContent = `Show ${formatCount(Math.min(COPIES_PAGE_SIZE, left))} more of ${formatCount(left)}`;
        // Copies the search leaves out (other years, filtered away, or edited so the query no longer matches) are
        // said, not listed: the card counted the search's copies only.
        const outside = page.story_size - page.copies;
        status.replaceChildren(
          cursor === null
            ? `All ${plural(shown, 'article', 'articles')} of this story in this search.`
            : `${formatCount(shown)} of ${formatCount(page.copies)} shown.`,
          outside > 0
            ? ` The corpus holds ${plural(outside, 'more article', 'more articles')} of this story that the search leaves out (its query, years or filters).`
            : '',
        );
      },
      (e: unknown) => {
        more.disabled = false;
        const retry = h('button', { type: 'button', class: 'link-button' }, 'Retry');
        retry.addEventListener('click', loadPage);
        status.replaceChildren(`The copies could not be loaded: ${plainError(e).message} `, retry);
      },
    );
  };
  button.addEventListener('click', () => {
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    region.hidden = !open;
    if (open && !started) loadPage();
  });
  more.addEventListener('click', loadPage);
  return h('div', { class: 'copies' }, button, region);
}

/** One copy: outlet, day and headline (a link to the article, in a new tab, when its URL is http(s)). */
function copyItem(c: QueryCopy, isCard: boolean): HTMLElement {
  const m = c.metadata ?? {};
  const outlet = metadataText(m, 'sitename') ?? metadataText(m, 'hostname') ?? 'Unknown source';
  const date = day(metadataText(m, 'date') ?? metadataText(m, 'publish_date') ?? metadataText(m, 'warc_date'));
  const href = safeHref(metadataText(m, 'url'));
  const title = metadataText(m, 'title') ?? 'Untitled article';
  return h(
    'li',
    { 'data-key': articleKey(c.year, c.doc_ix) },
    h('span', { class: 'copy-outlet' }, outlet),
    ' ',
    h('span', { class: 'copy-date' }, date ?? 'undated'),
    ' ',
    href === null
      ? h('span', { class: 'copy-title' }, title)
      : h(
          'a',
          { class: 'copy-title', href, target: '_blank', rel: 'noopener noreferrer nofollow' },
          title,
          h('span', { class: 'visually-hidden' }, ' (opens in a new tab)'),
        ),
    isCard ? h('span', { class: 'muted' }, ' (this card)') : null,
  );
}
