import { ApiError } from '../api/api-client.ts';
import type { ArticleMetadata, GetDocResponse } from '../api/types.ts';
import type { MergedArticle } from '../search/article-merge.ts';
import { snippetCuts } from '../search/snippet.ts';
import { formatSize, h, plural, replaceChildren } from './dom.ts';
import { renderSpans } from './spans.ts';
import { citationButton } from './citation-button.ts';
import { untitledLead } from './untitled-lead.ts';

export interface ArticleActions {
  snippet(a: MergedArticle): Promise<GetDocResponse>;
  fullText(a: MergedArticle): Promise<GetDocResponse>;
  release: string;
  /** UTF-8 length of the query, to tell whether a snippet window was cut. */
  queryBytes: number;
  onError(e: unknown): void;
}

/** A metadata field as text, or null when absent or blank. */
export function metadataText(m: ArticleMetadata, key: string): string | null {
  const v = m[key];
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

/** A date as its calendar day; the API keeps full timestamps, a reader wants the day. */
export function day(v: string | null): string | null {
  return v === null ? null : (/^\d{4}-\d{2}-\d{2}/.exec(v)?.[0] ?? v);
}

/** Only http(s) links become clickable: a `javascript:` URL in the metadata stays plain text. */
export function safeHref(url: string | null): string | null {
  if (url === null) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

function row(label: string, value: string | null | undefined, cls?: string): HTMLElement[] {
  return [h('dt', {}, label), h('dd', { class: cls }, value ?? '—')];
}

function details(a: MergedArticle, release: string): HTMLElement {
  const m = a.metadata;
  const scores = m.scores && typeof m.scores === 'object' ? Object.entries(m.scores) : [];
  return h(
    'div',
    { class: 'details' },
    h(
      'section',
      {},
      h('h4', {}, 'Country attribution'),
      h(
        'dl',
        {},
        ...row('Country', metadataText(m, 'country')),
        ...row('Attributed by', metadataText(m, 'country_source')),
        ...row('Confidence', metadataText(m, 'country_confidence')),
        ...row('Domain suffix', metadataText(m, 'country_tld')),
      ),
    ),
    h(
      'section',
      {},
      h('h4', {}, 'Classification'),
      h(
        'dl',
        {},
        ...row('Topic', metadataText(m, 'iptc_topic')),
        ...row('Language', metadataText(m, 'language')),
        ...row('Language (2nd identifier)', metadataText(m, 'lang')),
        ...(scores.length === 0
          ? row('Scores', null)
          : scores.flatMap(([k, v]) => row(`Score: ${k}`, typeof v === 'number' ? v.toFixed(3) : String(v)))),
      ),
    ),
    h(
      'section',
      {},
      h('h4', {}, 'Identifiers'),
      h(
        'dl',
        {},
        ...row('warc_record_id', metadataText(m, 'warc_record_id'), 'mono'),
        ...row('text_xxhash64', metadataText(m, 'text_xxhash64'), 'mono'),
        ...row('Year · doc_ix', `${a.year} · ${a.docIx}`, 'mono'),
        ...row('Release', release, 'mono'),
        ...row('Date source', metadataText(m, 'date_source')),
        ...row('WARC source', metadataText(m, 'warc_source'), 'mono'),
      ),
    ),
  );
}

/** Words a heading shows of an untitled article's context. */
const LEAD_CHARS = 90;

/**
 * A heading for an article without a title: the opening words of its loaded context, cut at a word boundary,
 * so untitled cards (whole corpora have no titles) differ from each other.
 */
export function leadWords(text: string, cutStart: boolean, max = LEAD_CHARS): string {
  let t = text.replace(/\s+/g, ' ').trim();
  // A window that starts mid-article starts mid-word: drop the partial word.
  if (cutStart) t = t.replace(/^\S*\s/, '');
  if (t.length <= max) return cutStart ? `…${t}` : t;
  const cut = t.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  return `${cutStart ? '…' : ''}${(space > max / 2 ? cut.slice(0, space) : cut.slice(0, max)).replace(/[\s,;:.–-]+$/, '')}…`;
}

/** The URL as a reader scans it: no scheme, no trailing slash. */
function shownUrl(href: string): string {
  return href.replace(/^https?:\/\//, '').replace(/\/$/, '');
}

/** A card's source, byline, dates and language line, and its URL line when it has a web address. */
export function cardMeta(m: ArticleMetadata, source: string, href: string | null): (HTMLElement | null)[] {
  const author = metadataText(m, 'author');
  const meta = [
    h('span', { class: 'source' }, source),
    author ? h('span', { class: 'author' }, `By ${author}`) : null,
    metadataText(m, 'publish_date') ? h('span', {}, `Published ${day(metadataText(m, 'publish_date'))}`) : null,
    metadataText(m, 'warc_date') ? h('span', {}, `Crawled ${day(metadataText(m, 'warc_date'))}`) : null,
    metadataText(m, 'language') ? h('span', { class: 'pill', title: 'Language' }, metadataText(m, 'language')) : null,
    metadataText(m, 'country')
      ? h('span', { class: 'pill country', title: 'Publisher country' }, metadataText(m, 'country'))
      : null,
  ].filter((x): x is HTMLElement => x !== null);
  return [
    h(
      'p',
      { class: 'meta' },
      ...meta.flatMap((x, i) => (i === 0 ? [x] : [h('span', { class: 'sep', 'aria-hidden': 'true' }, '·'), x])),
    ),
    href
      ? h(
          'p',
          { class: 'url' },
          h('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank', tabindex: -1 }, shownUrl(href)),
        )
      : null,
  ];
}

/** One result: title, source, dates, snippet with the match highlighted, details and the full text on demand. */
export function renderArticle(a: MergedArticle, actions: ArticleActions): HTMLElement {
  const m = a.metadata;
  const title = metadataText(m, 'title');
  const href = safeHref(metadataText(m, 'url'));
  const source = metadataText(m, 'sitename') ?? metadataText(m, 'hostname') ?? 'Unknown source';
  const detailsId = `details-${a.key.replace(':', '-')}`;
  const snippet = h(
    'div',
    { class: 'snippet-box', 'aria-busy': 'true' },
    h('p', { class: 'snippet loading' }, 'Loading context…'),
  );
  // Built on first open: the three metadata tables are most of a card's elements, and 25 cards come at once.
  const detailPanel = h('div', { id: detailsId, class: 'detail-panel', hidden: true });
  const full = h('div', { class: 'full-text', hidden: true });
  const detailsBtn = h(
    'button',
    { type: 'button', class: 'link-button', 'aria-expanded': 'false', 'aria-controls': detailsId },
    'Details',
  );
  const fullBtn = h('button', { type: 'button', class: 'link-button' }, 'Read full article');
  detailsBtn.addEventListener('click', () => {
    const open = detailPanel.hidden;
    if (detailPanel.childElementCount === 0) detailPanel.append(details(a, actions.release));
    detailPanel.hidden = !open;
    detailsBtn.setAttribute('aria-expanded', String(open));
  });
  fullBtn.addEventListener('click', () => void readFull(a, actions, full, fullBtn));
  const citationBox = h('div', { class: 'citation-box' });
  /** An untitled article's lead once its text arrived (the citation names it); null before and for titled ones. */
  let lead: string | null = null;

  // Without a title the heading names the source until the context arrives, then shows its opening words.
  const heading = h(
    'span',
    { class: title === null ? 'untitled' : undefined },
    title ?? `Untitled article from ${source}`,
  );
  const card = h(
    'article',
    { class: 'result', 'data-key': a.key },
    h(
      'header',
      {},
      h('h3', {}, href ? h('a', { href, rel: 'noopener noreferrer nofollow', target: '_blank' }, heading) : heading),
      h(
        'span',
        { class: 'count', title: 'occurrences in the examined pages' },
        plural(a.occurrences, 'match', 'matches'),
      ),
    ),
    ...cardMeta(m, source, href),
    snippet,
    h(
      'div',
      { class: 'actions' },
      detailsBtn,
      fullBtn,
      citationButton(m, actions.release, () => lead, citationBox),
    ),
    citationBox,
    detailPanel,
    full,
  );
  actions
    .snippet(a)
    .then((doc) => {
      snippet.removeAttribute('aria-busy');
      const cuts = snippetCuts(doc, actions.queryBytes);
      replaceChildren(snippet, renderSpans(doc.spans, cuts));
      if (title === null) {
        // The context's opening words at once; the lead sentence replaces them when it can be had.
        heading.textContent = lead = leadWords(doc.text, cuts.cutStart);
        void untitledLead(doc, cuts, () => actions.fullText(a)).then((sentence) => {
          if (sentence !== null) heading.textContent = lead = sentence;
        });
      }
    })
    .catch((e: unknown) => {
      snippet.removeAttribute('aria-busy');
      replaceChildren(
        snippet,
        h(
          'p',
          { class: 'snippet error' },
          e instanceof ApiError ? `Context unavailable: ${e.message}` : 'Context unavailable.',
        ),
      );
      actions.onError(e);
    });
  return card;
}

async function readFull(
  a: MergedArticle,
  actions: ArticleActions,
  box: HTMLElement,
  btn: HTMLButtonElement,
): Promise<void> {
  if (!box.hidden && box.childElementCount > 0) {
    box.hidden = true;
    btn.textContent = 'Read full article';
    return;
  }
  box.hidden = false;
  btn.disabled = true;
  replaceChildren(box, h('p', { class: 'muted', role: 'status' }, 'Loading the full article…'));
  try {
    const doc = await actions.fullText(a);
    replaceChildren(
      box,
      h('p', { class: 'muted' }, `${formatSize(doc.doc_len)} of text · matches highlighted`),
      renderSpans(doc.spans, { preserveLines: true }),
    );
    btn.textContent = 'Hide full article';
  } catch (e) {
    const tooLarge = e instanceof ApiError && e.code === 'article_too_large';
    replaceChildren(
      box,
      h(
        'p',
        { class: 'notice', role: 'alert' },
        tooLarge
          ? 'This article is larger than 1 MiB, the most this page reads in full. Its identifiers (Details) locate it in the published corpus copy.'
          : `The full article could not be loaded: ${(e as Error).message}`,
      ),
    );
    if (!tooLarge) actions.onError(e);
  } finally {
    btn.disabled = false;
  }
}
