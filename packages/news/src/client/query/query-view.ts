import type { ApiClient } from '../api/api-client.ts';
import type { QuerySearchResponse } from '../api/types.ts';
import { describeMatching } from '../search/matching-options.ts';
import { hasFilters, type SearchState } from '../search/url-state.ts';
import { drawTimeline, MAX_WIDTH } from '../timeline/timeline-svg.ts';
import { timelineChart } from '../timeline/timeline-data.ts';
import { formatCount, h, plural, replaceChildren } from '../view/dom.ts';
import { quotedQuery } from '../view/quoted-query.ts';
import { readViewKey, saveViewKeys } from '../view/url-keys.ts';
import { COPIES_PAGE_SIZE, type CopiesLoader } from './copies-list.ts';
import { renderQueryCard } from './query-card.ts';
import { queryExportButtons } from './query-export-buttons.ts';
import { caretIndex, errorPosition, markedQuery, queryRefusal } from './query-errors.ts';

/** Cards per page of a query-language search (the API allows up to 100). */
export const QUERY_PAGE_SIZE = 25;
/** "Count stories, not copies" (URL key `dedupe`): every article, or stories merging exact or near duplicates. */
type Dedupe = 'none' | 'exact' | 'near';
const DEDUPE_NAMES: Readonly<Record<Dedupe, string>> = {
  none: 'every article',
  exact: 'stories: exact copies merged',
  near: 'stories: near copies merged too',
};
const readDedupe = (): Dedupe => (['exact', 'near'] as const).find((d) => d === readViewKey('dedupe')) ?? 'none';

/** Words shown of what a `word*` stood for. */
const EXPANSION_WORDS = 8;

export interface QueryViewContext {
  readonly api: ApiClient;
  readonly state: SearchState;
  /** The view's section (emptied and filled here). */
  readonly root: HTMLElement;
  /** The search box, whose caret is put where a refused query went wrong. */
  readonly input: HTMLInputElement;
  /** False once a newer search started: its answers are dropped. */
  current(): boolean;
  status(text: string, busy: boolean): void;
  /** A failure the page reports in general terms (unreachable, busy, stale release), with Retry. */
  onError(e: unknown, retry: () => void): void;
  /** Runs the same search with Ignore capitals on. */
  ignoreCapitals(): void;
  /** The crawl-year range in words. */
  years: string;
}

/** How the headline count was made: exact, or a seeded sample's estimate with its 95% interval. */
function countNote(answer: QuerySearchResponse): string {
  if (answer.exact) return `exact count of ${answer.stories === undefined ? 'articles' : 'stories'}`;
  const i = answer.stories_interval ?? answer.interval;
  const unit = answer.stories === undefined ? 'articles' : 'stories';
  return `estimated from a sample of ${formatCount(answer.sample?.size ?? 0)}: ${formatCount(i.low)}–${formatCount(i.high)} ${unit} (95% interval)`;
}

/**
 * The article-level view of a query in the query language (`POST /api/v2/search`): the exact number of matching
 * articles, the query as the server read it (canonical form and notes), matching articles per crawl period, and the
 * articles a page at a time with their first match. A refused query is shown with the place it went wrong.
 */
export async function runQuerySearch(ctx: QueryViewContext): Promise<void> {
  const { state, root } = ctx;
  ctx.status(`Searching for ${quotedQuery(state.query)}…`, true);
  const dedupe = readDedupe();
  const request = { ...state, pageSize: QUERY_PAGE_SIZE, ...(dedupe === 'none' ? {} : { dedupe }) };
  let answer: QuerySearchResponse;
  try {
    answer = await ctx.api.search(request);
  } catch (e) {
    if (!ctx.current()) return;
    const refusal = queryRefusal(e);
    if (refusal === null) {
      ctx.onError(e, () => void runQuerySearch(ctx));
      return;
    }
    showRefusal(ctx, refusal, errorPosition(e));
    return;
  }
  if (!ctx.current()) return;
  root.hidden = false;
  const list = h('div', { class: 'article-list' });
  const more = h('button', { type: 'button', hidden: true }, '');
  replaceChildren(
    root,
    h(
      'div',
      { class: 'overview' },
      h(
        'div',
        { class: 'total-card' },
        h(
          'h2',
          { id: 'query-heading' },
          h('span', { class: 'big' }, formatCount(answer.stories ?? answer.articles)),
          ' ',
          h(
            'span',
            {},
            answer.stories === undefined
              ? `${answer.articles === 1 ? 'article matches' : 'articles match'} the query${hasFilters(state.filters) ? ' and the filters' : ''}`
              : `${answer.stories === 1 ? 'story' : 'stories'} (${plural(answer.articles, 'matching article', 'matching articles')}) match the query${hasFilters(state.filters) ? ' and the filters' : ''}`,
          ),
        ),
        dedupeControl(dedupe, () => void runQuerySearch(ctx)),
        h('p', { class: 'query-read' }, 'Searched for: ', h('code', {}, answer.query)),
        answer.notes.length === 0
          ? null
          : h('ul', { class: 'query-notes' }, ...answer.notes.map((n) => h('li', {}, `Read as typed, except: ${n}.`))),
        h(
          'p',
          { class: 'muted' },
          `In ${ctx.years}, ${describeMatching(state.matching)}; ${countNote(answer)} · release ${answer.index_version}`,
        ),
        ...answer.expansions.map((x) =>
          h(
            'p',
            { class: 'muted expansion' },
            `${x.term} stood for ${
              x.words.length === 0
                ? 'no word'
                : x.words
                    .slice(0, EXPANSION_WORDS)
                    .map((w) => `${w.word} (${formatCount(w.occurrences)})`)
                    .join(', ')
            }${x.words.length > EXPANSION_WORDS ? `, and ${formatCount(x.words.length - EXPANSION_WORDS)} more` : ''}`,
          ),
        ),
      ),
      periodChart(answer, root),
    ),
    answer.articles === 0 ? null : queryExportButtons({ api: ctx.api, state, dedupe, answer, onError: ctx.onError }),
    list,
    h('div', { class: 'more' }, more),
  );
  if (answer.articles === 0) {
    list.append(h('p', { class: 'empty' }, `No article matches ${quotedQuery(answer.query)} in ${ctx.years}.`));
    ctx.status('No matching articles.', false);
    if (!state.matching.caseInsensitive) void suggestIgnoreCapitals(ctx, list);
    return;
  }
  let shown = 0;
  let cursor = answer.next_cursor;
  const copies: CopiesLoader | undefined =
    dedupe === 'none'
      ? undefined
      : (story, after) =>
          ctx.api.searchCopies({
            ...state,
            dedupe,
            story,
            version: answer.index_version,
            pageSize: COPIES_PAGE_SIZE,
            cursor: after,
          });
  const addPage = (page: QuerySearchResponse, focus: boolean): void => {
    const cards = page.page.map((a) => renderQueryCard(a, answer.index_version, copies));
    // Cards list stories with dedupe: the number of matching articles is what `following` counts then.
    list.append(...cards);
    shown += cards.length;
    cursor = page.next_cursor;
    more.hidden = cursor === null;
    const total = answer.stories ?? answer.articles;
    const unit = answer.stories === undefined ? 'articles' : 'stories';
    const left = total - shown;
    more.textContent = `Show the next ${formatCount(Math.min(QUERY_PAGE_SIZE, left))} of ${formatCount(left)} ${unit}`;
    if (focus) cards[0]?.querySelector<HTMLElement>('h3 a, button')?.focus();
    ctx.status(
      `Showing ${formatCount(shown)} of ${answer.stories === undefined ? plural(answer.articles, 'matching article', 'matching articles') : plural(answer.stories, 'story', 'stories')}.`,
      false,
    );
  };
  addPage(answer, false);
  more.addEventListener('click', () => {
    if (cursor === null) return;
    more.disabled = true;
    ctx.api
      .search({ ...request, cursor })
      .then(
        (page) => {
          if (ctx.current()) addPage(page, true);
        },
        (e: unknown) => {
          if (ctx.current()) ctx.onError(e, () => more.click());
        },
      )
      .finally(() => {
        more.disabled = false;
      });
  });
}

/** Matching articles per crawl period, on the timeline's calendar axis. */
function periodChart(answer: QuerySearchResponse, root: HTMLElement): HTMLElement {
  // A sampled answer's periods are estimates: their 95% intervals are drawn as a band.
  const caption = `Matching articles per crawl period${answer.exact ? '' : ' (estimated from a sample; shaded: 95% interval)'}`;
  const intervals = answer.exact ? undefined : new Map(answer.periods.map((p) => [p.period, p.interval]));
  const chart = timelineChart(
    [
      {
        phrase: answer.query,
        periods: answer.periods.map((p) => ({ ...p, occurrences: p.articles, text_bytes: 0 })),
        ...(intervals === undefined ? {} : { intervals }),
      },
    ],
    'raw',
  );
  if (chart.periods.length === 0)
    return h(
      'figure',
      { class: 'chart' },
      h('figcaption', {}, caption),
      h('p', { class: 'muted' }, 'No matching article in the selected crawl periods.'),
    );
  // The drawing's width is the figure's: the section is laid out already (shown before this is built).
  const width = Math.min(MAX_WIDTH, Math.max(0, root.clientWidth - 40));
  return h(
    'figure',
    { class: 'chart', 'data-testid': 'query-chart' },
    h('figcaption', {}, caption),
    drawTimeline(chart, caption, width).element,
  );
}

/** A search with no match suggests Ignore capitals when that finds some (issue 29 bug 8). */
async function suggestIgnoreCapitals(ctx: QueryViewContext, list: HTMLElement): Promise<void> {
  try {
    const folded = await ctx.api.search({
      ...ctx.state,
      matching: { ...ctx.state.matching, caseInsensitive: true },
      pageSize: 0,
    });
    if (!ctx.current() || folded.articles === 0) return;
    list.append(
      ignoreCapitalsOffer(
        `With Ignore capitals, ${plural(folded.articles, 'article matches', 'articles match')}.`,
        ctx.ignoreCapitals,
      ),
    );
  } catch {
    // Only a suggestion: the answer without it stands.
  }
}

/** "With Ignore capitals, …" and the button that searches so: shown when a search without it found nothing. */
export function ignoreCapitalsOffer(found: string, run: () => void): HTMLElement {
  return h(
    'p',
    { class: 'suggestion' },
    `${found} `,
    h('button', { type: 'button', class: 'primary', onclick: run }, 'Search with Ignore capitals'),
  );
}

function showRefusal(ctx: QueryViewContext, message: string, position: number | null): void {
  ctx.root.hidden = false;
  replaceChildren(
    ctx.root,
    h(
      'div',
      { class: 'query-error', role: 'alert' },
      h('p', {}, message),
      position === null ? null : markedQuery(ctx.state.query, position),
    ),
  );
  ctx.status('', false);
  if (position !== null) {
    const at = caretIndex(ctx.state.query, position);
    ctx.input.focus();
    ctx.input.setSelectionRange(at, at + 1);
  }
}

/** The "Count stories, not copies" choice; a change is kept in the URL and searches again. */
function dedupeControl(current: Dedupe, rerun: () => void): HTMLElement {
  const select = h(
    'select',
    {
      id: 'dedupe',
      onchange: () => {
        saveViewKeys({ dedupe: select.value === 'none' ? null : select.value });
        rerun();
      },
    },
    ...(Object.keys(DEDUPE_NAMES) as Dedupe[]).map((d) =>
      h('option', { value: d, selected: d === current }, DEDUPE_NAMES[d]),
    ),
  );
  return h('p', { class: 'dedupe' }, h('label', { for: 'dedupe' }, 'Count stories, not copies: '), select);
}
