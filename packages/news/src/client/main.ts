/**
 * The search page: wires the form, the URL and the result views to a SearchSession. All logic it relies on
 * (URL state, examination plan, merging, exports, chart data) lives in pure modules with their own tests.
 */
import { ApiClient, ApiError, StaleReleaseError } from './api/api-client.ts';
import { chartData } from './chart/chart-data.ts';
import { loadFirstContexts } from './concordance/index.ts';
import { buildDownloadScript } from './export/download-script.ts';
import { XLSX_TYPE } from './export/xlsx.ts';
import {
  examinedCsv,
  examinedJson,
  examinedXlsx,
  exportContextOf,
  exportFileName,
  sampleCsv,
  sampleJson,
  type ExportContext,
} from './export/export-data.ts';
import {
  DEFAULT_INDEX,
  hasFilters,
  linkProblems,
  parseSearchState,
  serializeSearchState,
  type SearchState,
} from './search/url-state.ts';
import { SearchSession } from './search/search-session.ts';
import { defaultAutoExamineOptions, examineUntilEnough } from './search/auto-examine.ts';
import { describeMatching } from './search/matching-options.ts';
import { renderArticle } from './view/article-view.ts';
import { peakLine } from './view/peak-line.ts';
import { quotedQuery } from './view/quoted-query.ts';
import { mountThemeSwitch } from './view/theme-switch.ts';
import { afterPaint, byId, downloadText, formatCount, h, plural, replaceChildren } from './view/dom.ts';
import { formProblem, readForm, setIndexes, writeForm } from './view/search-form.ts';
import { applyFilterSupport, filterEnabled, markFilterRefused } from './view/filter-support.ts';
import { plainError } from './view/error-messages.ts';
import { renderFacets, toggleFilterValue } from './view/facets-view.ts';
import { showEstimate } from './view/filtered-total.ts';
import type { EstimateResponse } from './api/types.ts';
import { ResultViews } from './result-views.ts';
import { carriedViewKeys, withViewKeys } from './view/url-keys.ts';
import { parseTimelineView, writeTimelineView } from './timeline/index.ts';
import {
  ignoreCapitalsOffer,
  requestFirstCards,
  runQuerySearch,
  showFirstCards,
  trimmedPhrase,
  usesQueryLanguage,
  type FirstCards,
} from './query/index.ts';

const PAGE_OF_CARDS = 25;
/** How long a filtered search's occurrence scan waits for the search call's first cards (1.1 s for "the" here). */
const FIRST_CARDS_WAIT_MS = 2000;
const api = new ApiClient();
const views = new ResultViews(api);

let session: SearchSession | null = null;
/** The current search's estimate (filtered totals and facets); null until it answers. */
let estimate: EstimateResponse | null = null;
/** Increases with every search so answers of an abandoned search are dropped. */
let generation = 0;
let shown = 0;
let limit = PAGE_OF_CARDS;
/** A filtered search's first cards from `search` (bug 11): the scan's cards replace them; null until they are in. */
let searchedCards: FirstCards | null = null;
/** While a filtered search's first cards are asked for, the scan's cards wait, so the list starts with them. */
let awaitingSearchedCards = false;

const el = {
  form: byId<HTMLFormElement>('search-form'),
  status: byId('status'),
  alert: byId('alert'),
  results: byId('results'),
  welcome: byId('welcome'),
  total: byId('total'),
  totalLabel: byId('total-label'),
  totalNote: byId('total-note'),
  summary: byId('examined-summary'),
  list: byId('article-list'),
  next: byId<HTMLButtonElement>('examine-next'),
  more: byId<HTMLButtonElement>('show-more'),
  searchButton: byId<HTMLButtonElement>('search-button'),
  facets: byId('facets'),
  queryResults: byId('query-results'),
  phraseNote: byId('phrase-note'),
  exactArticles: byId('exact-articles'),
};

/** The status line; `quiet` messages are only announced to screen readers (the summary shows the same facts). */
function setStatus(text: string, busy = false, quiet = false): void {
  el.status.textContent = text;
  el.status.classList.toggle('busy', busy);
  el.status.classList.toggle('quiet', quiet);
  el.results.setAttribute('aria-busy', String(busy));
}

function showAlert(message: string, action?: { label: string; run: () => void }): void {
  replaceChildren(
    el.alert,
    h('p', {}, message),
    action ? h('button', { type: 'button', class: 'primary', onclick: action.run }, action.label) : null,
  );
  el.alert.hidden = false;
}

function clearAlert(): void {
  el.alert.hidden = true;
  el.alert.replaceChildren();
}

/** `retry` repeats what failed; it is offered when waiting may help (service busy or unreachable). */
function reportError(e: unknown, retry?: () => void): void {
  if (e instanceof StaleReleaseError) {
    el.next.disabled = true;
    showAlert(
      `The corpus was updated since this search (release ${e.expected} is no longer served${e.current ? `; now ${e.current}` : ''}). ` +
        'The results shown belong to the old release. Rerun the search to continue with the new one.',
      {
        label: 'Rerun search',
        run: () => {
          if (session) void runSearch(session.state);
        },
      },
    );
    setStatus('The corpus was updated; rerun the search.');
    return;
  }
  if (e instanceof ApiError && e.code === 'country_attribution_unavailable' && session !== null) {
    noCountryFilter(session.state);
    return;
  }
  const plain = plainError(e);
  showAlert(
    plain.message,
    plain.retry && retry
      ? {
          label: 'Retry',
          run: () => {
            clearAlert();
            retry();
          },
        }
      : undefined,
  );
  setStatus('');
}

/** The release has no publisher-country table: say so plainly, stop examining, offer the search without it. */
function noCountryFilter(state: SearchState): void {
  el.next.hidden = true;
  const countries = byId<HTMLInputElement>('countries');
  markFilterRefused('countries');
  countries.title = 'This corpus release has no publisher-country information.';
  showAlert(
    'This corpus release has no publisher-country information, so the Publisher countries filter cannot be used.',
    {
      label: 'Search without the country filter',
      run: () => {
        countries.value = '';
        writeForm({ ...state, filters: { ...state.filters, countries: [] } });
        submit();
      },
    },
  );
  setStatus('');
}

function exportContext(s: SearchSession): ExportContext {
  return exportContextOf(s.state, s.release);
}

function renderSummary(s: SearchSession): void {
  const t = s.articles.totals();
  const total = s.found.total_occurrences;
  const filtered = hasFilters(s.state.filters);
  const parts = [
    `Examined ${formatCount(t.examinedOccurrences)} of ${formatCount(total)} occurrences`,
    `${plural(t.matchingArticles, filtered ? 'matching article' : 'article', filtered ? 'matching articles' : 'articles')} with ${plural(t.matchingOccurrences, 'occurrence', 'occurrences')} in the examined pages`,
  ];
  replaceChildren(el.summary, parts.join(' · '));
  el.next.hidden = s.done;
  el.next.disabled = s.stale !== null;
  el.next.textContent = `Examine next ${formatCount(Math.min(1000, s.remaining))}`;
}

/** `partial`: more pages of this step are on their way, so an empty list says nothing yet. */
function renderMoreCards(s: SearchSession, focusFirst = false, partial = false): void {
  if (awaitingSearchedCards) return;
  const all = s.articles.articles();
  const batch = all.slice(shown, limit);
  // The contexts are asked for once the cards are painted: 25 requests held back the first card by ~1 ms each.
  const painted = afterPaint();
  const cards: HTMLElement[] = [];
  for (const a of batch) {
    const card = renderArticle(a, {
      snippet: (x) => painted.then(() => s.snippet(x)),
      fullText: (x) => s.fullText(x),
      release: s.release,
      queryBytes: new TextEncoder().encode(s.state.query).length,
      onError: reportError,
    });
    // A card the search call listed first (bug 11) becomes the full card (details, full text, sample) in its place.
    const listed = searchedCards?.keys.has(a.key)
      ? el.list.querySelector(`article.result[data-key="${CSS.escape(a.key)}"]`)
      : null;
    if (listed === null) cards.push(card);
    else listed.replaceWith(card);
  }
  el.list.append(...cards);
  shown += batch.length;
  el.more.hidden = shown >= all.length;
  el.more.textContent = `Show ${formatCount(Math.min(PAGE_OF_CARDS, all.length - shown))} more of ${formatCount(all.length - shown)} loaded articles`;
  if (focusFirst) cards[0]?.querySelector<HTMLElement>('h3 a, button')?.focus();
  if (
    !partial &&
    (searchedCards?.keys.size ?? 0) === 0 &&
    s.articles.totals().matchingArticles === 0 &&
    s.articles.totals().examinedOccurrences > 0
  ) {
    replaceChildren(
      el.list,
      h(
        'p',
        { class: 'empty' },
        hasFilters(s.state.filters)
          ? 'None of the examined articles match the filters. Examine the next occurrences, or loosen the filters.'
          : 'No articles in the examined pages.',
      ),
    );
  }
}

/** `stepDone` is called once this step's pages are in (or failed), before any scanning on for filters. */
async function examine(s: SearchSession, gen: number, stepDone: () => void = () => {}): Promise<void> {
  setStatus(`Examining up to 1,000 occurrences of ${quotedQuery(s.state.query)}…`, true);
  el.next.disabled = true;
  try {
    const firstStep = s.articles.totals().examinedOccurrences === 0;
    // The first step shows each page's cards as it comes in (a rare phrase's step spans dozens of shards).
    const added = await s
      .examineNext(
        firstStep
          ? (fresh) => {
              if (gen === generation && fresh.length > 0) renderMoreCards(s, false, true);
            }
          : undefined,
      )
      .finally(stepDone);
    // With filters a step may hold no match: scan on by itself until a page of cards is found (bounded).
    if (hasFilters(s.state.filters)) {
      added.push(
        ...(await examineUntilEnough(s, {
          ...defaultAutoExamineOptions,
          wanted: shown + PAGE_OF_CARDS,
          alive: () => gen === generation,
          mayFindMore: () => {
            // The exact count (search) where it came, else the estimate's upper bound: all found, stop scanning.
            const most = searchedCards?.articles ?? estimate?.matching_articles.high ?? Infinity;
            return most > s.articles.totals().matchingArticles;
          },
          progress: () =>
            setStatus(
              `Looking for articles that match the filters: examined ${formatCount(s.articles.totals().examinedOccurrences)} of ${formatCount(s.found.total_occurrences)} occurrences…`,
              true,
            ),
        })),
      );
    }
    if (gen !== generation) return;
    renderSummary(s);
    // A later step shows 25 more cards at once, focused, so "Examine next" visibly adds to the list.
    if (!firstStep && added.length > 0) limit = shown + PAGE_OF_CARDS;
    renderMoreCards(s, !firstStep && added.length > 0);
    setStatus(`${plural(added.length, 'new article', 'new articles')} from this step.`, false, true);
  } catch (e) {
    if (gen !== generation) return;
    renderSummary(s);
    reportError(e, () => void examine(s, gen));
  } finally {
    if (gen === generation) el.next.disabled = s.stale !== null;
  }
}

/** The crawl-year range in words: "all crawl years", "crawl year 1987", "crawl years from 2025", "… 2019–2021". */
function crawlYears(state: SearchState): string {
  const { yearMin: min, yearMax: max } = state;
  if (min === null && max === null) return 'all crawl years';
  if (min === max) return `crawl year ${min}`;
  if (max === null) return `crawl years from ${min}`;
  if (min === null) return `crawl years up to ${max}`;
  return `crawl years ${min}–${max}`;
}

/**
 * Asks for the estimate beside the examination: facets always; with filters (or whole words, whose find
 * intervals hold every candidate) the total and the chart then show the matching occurrences.
 */
async function loadEstimate(s: SearchSession, gen: number, request: Promise<EstimateResponse>): Promise<void> {
  const { state } = s;
  el.facets.hidden = false;
  replaceChildren(
    el.facets,
    h('p', { class: 'muted' }, 'Counting languages, topics and sources of the matching articles…'),
  );
  try {
    const est = await request;
    if (gen !== generation) return;
    // estimate takes no expected release: an answer from another release must not be mixed with this search.
    if (est.index_version !== s.release) {
      reportError(new StaleReleaseError(s.release, est.index_version, est));
      return;
    }
    estimate = est;
    replaceChildren(
      el.facets,
      renderFacets(est, {
        filters: state.filters,
        usable: filterEnabled,
        toggle: (filter, value) => {
          writeForm({ ...state, filters: toggleFilterValue(state.filters, filter, value) });
          submit();
        },
      }),
    );
    showEstimate(est, state, s.release, el);
    const peak =
      state.matching.wholeWord && !hasFilters(state.filters)
        ? peakLine(est.periods, chartData(s.found).yearly, est.mode === 'exact')
        : null;
    if (peak !== null) el.totalNote.append(h('span', { class: 'peak' }, peak));
  } catch (e) {
    if (gen !== generation) return;
    if (e instanceof ApiError && e.code === 'country_attribution_unavailable') return; // the examination reports it
    replaceChildren(
      el.facets,
      h(
        'p',
        { class: 'muted' },
        `The counts by language, topic and source are not available just now. ${plainError(e).message}`,
      ),
    );
  }
}

/** The search's estimate; a filtered search shares one request between the total, the facets and the timeline. */
function requestEstimate(s: SearchSession): Promise<EstimateResponse> {
  return api.estimate({ ...s.state, filters: s.state.filters });
}

/** A phrase without occurrences offers Ignore capitals when that finds some (issue 29 bug 8). */
async function offerIgnoreCapitals(state: SearchState, gen: number): Promise<void> {
  const matching = { ...state.matching, caseInsensitive: true };
  const found = await api.find({ ...state, matching }).catch(() => null);
  if (found === null || found.total_occurrences === 0 || gen !== generation) return;
  el.list.append(
    ignoreCapitalsOffer(
      `With Ignore capitals, ${plural(found.total_occurrences, 'occurrence is', 'occurrences are')} found.`,
      () => {
        writeForm({ ...state, matching });
        submit();
      },
    ),
  );
}

const PAGE_TITLE = document.title;

async function runSearch(state: SearchState): Promise<void> {
  const gen = ++generation;
  // The tab names the search, so several open searches can be told apart.
  document.title =
    state.query === ''
      ? PAGE_TITLE
      : `“${state.query.length > 60 ? `${state.query.slice(0, 60)}…` : state.query}” · ${PAGE_TITLE}`;
  clearAlert();
  session = null;
  estimate = null;
  searchedCards = null;
  awaitingSearchedCards = false;
  el.exactArticles.hidden = true;
  el.facets.hidden = true;
  shown = 0;
  limit = PAGE_OF_CARDS;
  el.list.replaceChildren();
  el.more.hidden = true;
  el.queryResults.hidden = true;
  el.queryResults.replaceChildren();
  views.reset();
  if (state.query === '') {
    el.results.hidden = true;
    el.welcome.hidden = false;
    setStatus('');
    return;
  }
  el.welcome.hidden = true;
  // Nothing of the previous search stays on screen (total, chart, exports) while the new one is asked for.
  el.results.hidden = true;
  if (usesQueryLanguage(state.query)) {
    await runQuerySearch({
      api,
      state,
      root: el.queryResults,
      input: byId<HTMLInputElement>('q'),
      years: crawlYears(state),
      current: () => gen === generation,
      status: setStatus,
      onError: reportError,
      ignoreCapitals: () => {
        writeForm({ ...state, matching: { ...state.matching, caseInsensitive: true } });
        submit();
      },
    });
    return;
  }
  // Spaces around a phrase count as text (a substring search), so they are removed and the page says so (bug 8).
  const { phrase, trimmed } = trimmedPhrase(state.query);
  if (trimmed) {
    state = { ...state, query: phrase };
    byId<HTMLInputElement>('q').value = phrase;
  }
  el.phraseNote.hidden = !trimmed;
  el.phraseNote.textContent = trimmed
    ? `Spaces around the phrase were removed: searched for ${quotedQuery(phrase)}.`
    : '';
  setStatus(`Searching for ${quotedQuery(state.query)}…`, true);
  el.searchButton.disabled = true;
  // A filtered search's first cards are asked beside find (bug 11): they need no release to start from.
  const firstCardsRequest = hasFilters(state.filters) ? requestFirstCards(api, state) : null;
  // Answered or refused with nothing waiting for it when the search fails or finds nothing: not an unhandled rejection.
  firstCardsRequest?.catch(() => {});
  try {
    const s = await SearchSession.start(api, state);
    if (gen !== generation) return;
    session = s;
    const total = s.found.total_occurrences;
    // The first page of cards is asked for before anything else is drawn: the worker answers while the page
    // renders the total, and the chart's request waits for the cards (ResultViews), so its drawing never delays them.
    let firstStepDone = () => {};
    const firstCards = new Promise<void>((resolve) => {
      firstStepDone = resolve;
    });
    const filtered = hasFilters(state.filters);
    // Asked before the scan's pages, which would hold the page's call slots (bug 11).
    let scanning = total > 0;
    let scanStarts: Promise<unknown> = Promise.resolve();
    if (total > 0 && filtered) {
      awaitingSearchedCards = true;
      let late = false;
      const shownFirst = showFirstCards(firstCardsRequest, s.release, {
        list: el.list,
        exact: el.exactArticles,
        current: () => gen === generation,
        late: () => late,
      });
      // The scan waits for the search (both compete for the worker), but not for long: then the scan's cards come first.
      scanStarts = Promise.race([shownFirst, new Promise((r) => setTimeout(r, FIRST_CARDS_WAIT_MS))]).then(() => {
        late = true;
        awaitingSearchedCards = false;
      });
      void shownFirst.then((f) => {
        if (gen !== generation) return;
        searchedCards = f;
        awaitingSearchedCards = false;
        renderMoreCards(s, false, scanning);
      });
    }
    const examining =
      total > 0
        ? scanStarts
            .then(() => examine(s, gen, firstStepDone))
            .finally(() => {
              scanning = false;
            })
        : Promise.resolve();
    if (total === 0) firstStepDone();
    // The script checks every page against find's rank intervals, which a whole-word search does not fill.
    const script = byId<HTMLButtonElement>('download-script');
    script.disabled = state.matching.wholeWord;
    script.title = state.matching.wholeWord
      ? 'The download script cannot do whole-word searches yet; turn off Whole words only to get it.'
      : 'Python script that downloads every matching article';
    el.results.hidden = false;
    el.total.textContent = formatCount(total);
    el.totalLabel.textContent = `${total === 1 ? 'occurrence' : 'occurrences'} of ${quotedQuery(state.query)}`;
    const years = crawlYears(state);
    const chart = chartData(s.found);
    // find's per-shard intervals hold whole-word candidates, not matches: a whole-word search takes the line from
    // the estimate's periods once it answers (loadEstimate).
    const peak = state.matching.wholeWord
      ? null
      : peakLine(
          chart.bars.map((b) => ({ period: b.period, occurrences: b.count })),
          chart.yearly,
          true,
        );
    replaceChildren(
      el.totalNote,
      `In ${years}, ${describeMatching(state.matching)}, before metadata filters · release ${s.release}`,
      peak === null ? null : h('span', { class: 'peak' }, peak),
    );
    if (hasFilters(state.filters)) {
      // Until the estimate answers, the find total is the only count: say that it is before the filters.
      el.totalLabel.textContent = `${total === 1 ? 'occurrence' : 'occurrences'} of ${quotedQuery(state.query)} before the filters`;
      replaceChildren(
        el.totalNote,
        `In ${years}, ${describeMatching(state.matching)} · counting those in articles matching the filters…`,
      );
    }
    if (total === 0) {
      renderSummary(s);
      replaceChildren(
        el.list,
        h(
          'p',
          { class: 'empty' },
          `No article contains ${quotedQuery(state.query)} in ${years} (${describeMatching(state.matching)}). Check the spelling${state.matching.caseInsensitive ? '' : ', try Ignore capitals'}, or widen the crawl years.`,
        ),
      );
      setStatus('No occurrences.');
      if (!state.matching.caseInsensitive) void offerIgnoreCapitals(state, gen);
    }
    // A filtered search needs the estimate for its total at once; otherwise it waits for the first cards, so the
    // worker answers the first page before it resolves up to 20,000 ranks for the facets.
    const filteredEstimate = total > 0 && filtered ? requestEstimate(s) : null;
    views.show({
      session: s,
      filteredEstimate,
      firstCards,
      exportContext: () => exportContext(s),
      onError: reportError,
      current: () => gen === generation,
      searchFor: (phrase) => {
        byId<HTMLInputElement>('q').value = phrase;
        submit();
      },
    });
    if (filteredEstimate !== null) void loadEstimate(s, gen, filteredEstimate);
    await examining;
    if (total > 0 && !filtered && gen === generation) void loadEstimate(s, gen, requestEstimate(s));
  } catch (e) {
    if (gen !== generation) return;
    el.results.hidden = true;
    reportError(e, () => void runSearch(state));
  } finally {
    if (gen === generation) el.searchButton.disabled = false;
  }
}

function submit(): void {
  const state = readForm();
  const problem = formProblem(state);
  if (problem !== null) {
    showAlert(problem);
    byId('q').focus();
    return;
  }
  // The chart's measure and compared phrases carry over to the next search (a phrase that became the search is
  // dropped), and so do the result tab and its settings (not a concordance page: that belongs to one answer).
  const view = parseTimelineView(location.search);
  const qs =
    state.query === ''
      ? ''
      : withViewKeys(
          writeTimelineView(serializeSearchState(state), {
            ...view,
            compare: view.compare.filter((c) => c !== state.query),
          }),
          carriedViewKeys(location.search),
        );
  if (qs !== location.search.replace(/^\?/, '')) history.pushState(null, '', qs === '' ? location.pathname : `?${qs}`);
  writeForm(state);
  void runSearch(state);
}

type ExportFile = { name: string; text: string | Uint8Array; type: string };
function exportButton(id: string, make: (s: SearchSession) => ExportFile | Promise<ExportFile>): void {
  byId(id).addEventListener('click', () => {
    if (session === null) return;
    Promise.resolve(make(session)).then(
      (f) => downloadText(f.name, f.text, f.type),
      (e: unknown) => reportError(e),
    );
  });
}

/** The examined matches with the first occurrence of each article in context (one contexts call per examined page). */
async function examinedExport(s: SearchSession) {
  const articles = s.articles.articles();
  const intervals = s.articles.examinedIntervals();
  const contexts = await loadFirstContexts(
    api,
    { index: s.state.index, query: s.state.query, release: s.release, matching: s.state.matching },
    intervals,
    articles,
  );
  return { articles, intervals, totals: s.articles.totals(), contexts };
}

exportButton('export-examined-csv', async (s) => ({
  name: exportFileName('matching-articles', s.state.query, 'csv'),
  type: 'text/csv;charset=utf-8',
  text: examinedCsv(exportContext(s), await examinedExport(s)),
}));
exportButton('export-examined-xlsx', async (s) => ({
  name: exportFileName('matching-articles', s.state.query, 'xlsx'),
  type: XLSX_TYPE,
  text: await examinedXlsx(exportContext(s), await examinedExport(s)),
}));
exportButton('export-examined-json', async (s) => ({
  name: exportFileName('matching-articles', s.state.query, 'json'),
  type: 'application/json',
  text: examinedJson(exportContext(s), await examinedExport(s)),
}));
exportButton('export-sample-csv', (s) => ({
  name: exportFileName('shown-snippets', s.state.query, 'csv'),
  type: 'text/csv;charset=utf-8',
  text: sampleCsv(exportContext(s), s.sample),
}));
exportButton('export-sample-json', (s) => ({
  name: exportFileName('shown-snippets', s.state.query, 'json'),
  type: 'application/json',
  text: sampleJson(exportContext(s), s.sample),
}));
exportButton('download-script', (s) => ({
  name: 'news-download.py',
  type: 'text/x-python;charset=utf-8',
  text: buildDownloadScript({
    apiBase: location.origin,
    query: s.state.query,
    index: s.state.index,
    yearMin: s.state.yearMin,
    yearMax: s.state.yearMax,
    filters: s.state.filters,
    caseInsensitive: s.state.matching.caseInsensitive,
    generatedAt: new Date().toISOString(),
  }),
}));

el.form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  submit();
});
el.next.addEventListener('click', () => {
  if (session) void examine(session, generation);
});
el.more.addEventListener('click', () => {
  if (session) {
    limit += PAGE_OF_CARDS;
    renderMoreCards(session, true);
  }
});
window.addEventListener('popstate', () => {
  const s = parseSearchState(location.search);
  writeForm(s);
  void runSearch(s);
});
// "/" jumps to the phrase box, as on most search sites, unless the reader is typing somewhere.
document.addEventListener('keydown', (ev) => {
  const t = ev.target as HTMLElement | null;
  if (
    ev.key === '/' &&
    !(t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement)
  ) {
    ev.preventDefault();
    byId('q').focus();
  }
});

/** Describes the corpus in the masthead and offers its indexes; false when `current` is not one of them. */
async function describeCorpus(current: string): Promise<boolean> {
  try {
    const info = await api.info();
    const known = setIndexes(info.available_indexes, current);
    applyFilterSupport(info);
    const range =
      info.date_range.first === null
        ? 'no crawl periods loaded'
        : info.date_range.first === info.date_range.last
          ? `crawled ${info.date_range.first}`
          : `crawled ${info.date_range.first} to ${info.date_range.last}`;
    byId('corpus-info').textContent =
      `${plural(info.document_count, 'article', 'articles')} · ${range} · release ${info.index_version}`;
    if (!known)
      showAlert(
        `This link asks for the index “${current}”, which this service does not have (it has ${info.available_indexes.join(', ')}). Choose an index and search again.`,
      );
    return known;
  } catch {
    // The page still searches without info; it only loses the corpus description and the index list.
    return true;
  }
}

async function start(): Promise<void> {
  document.querySelector('.masthead .wrap')?.prepend(mountThemeSwitch());
  const initial = parseSearchState(location.search);
  writeForm(initial);
  const problems = linkProblems(location.search);
  // The default index needs no check before searching; another one is confirmed first (no search on a bogus one).
  const described = describeCorpus(initial.index);
  if (initial.index !== DEFAULT_INDEX && !(await described)) return;
  if (initial.query !== '') await runSearch(initial);
  else byId('q').focus();
  // After the search, whose start clears the alert: what the link asked for that was left out.
  if (problems.length > 0 && el.alert.hidden) showAlert(problems.join(' '));
}
void start();
