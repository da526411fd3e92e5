/**
 * The search page: wires the form, the URL and the result views to a SearchSession. All logic it relies on
 * (URL state, examination plan, merging, exports, chart data) lives in pure modules with their own tests.
 */
import { ApiClient, ApiError, ServiceUnavailableError, StaleReleaseError } from './api/api-client.ts';
import { chartData } from './chart/chart-data.ts';
import { buildDownloadScript } from './export/download-script.ts';
import { examinedCsv, examinedJson, exportFileName, sampleCsv, sampleJson, type ExportContext } from './export/export-data.ts';
import type { MergedArticle } from './search/article-merge.ts';
import { DEFAULT_INDEX, hasFilters, linkProblems, parseSearchState, serializeSearchState, type SearchState } from './search/url-state.ts';
import { SearchSession } from './search/search-session.ts';
import { renderArticle } from './view/article-view.ts';
import { renderChart } from './view/chart-view.ts';
import { byId, downloadText, formatCount, h, plural, replaceChildren } from './view/dom.ts';
import { formProblem, readForm, setIndexes, writeForm } from './view/search-form.ts';

const PAGE_OF_CARDS = 25;
const api = new ApiClient();

let session: SearchSession | null = null;
/** Increases with every search so answers of an abandoned search are dropped. */
let generation = 0;
let shown = 0;
let limit = PAGE_OF_CARDS;

const el = {
  form: byId<HTMLFormElement>('search-form'),
  status: byId('status'),
  alert: byId('alert'),
  results: byId('results'),
  welcome: byId('welcome'),
  total: byId('total'),
  totalLabel: byId('total-label'),
  totalNote: byId('total-note'),
  chart: byId('chart'),
  summary: byId('examined-summary'),
  list: byId('article-list'),
  next: byId<HTMLButtonElement>('examine-next'),
  more: byId<HTMLButtonElement>('show-more'),
  searchButton: byId<HTMLButtonElement>('search-button'),
};

/** The status line; `quiet` messages are only announced to screen readers (the summary shows the same facts). */
function setStatus(text: string, busy = false, quiet = false): void {
  el.status.textContent = text;
  el.status.classList.toggle('busy', busy);
  el.status.classList.toggle('quiet', quiet);
  el.results.setAttribute('aria-busy', String(busy));
}

function showAlert(message: string, action?: { label: string; run: () => void }): void {
  replaceChildren(el.alert, h('p', {}, message), action ? h('button', { type: 'button', class: 'primary', onclick: action.run }, action.label) : null);
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
    showAlert(`The corpus was updated since this search (release ${e.expected} is no longer served${e.current ? `; now ${e.current}` : ''}). `
      + 'The results shown belong to the old release. Rerun the search to continue with the new one.', {
      label: 'Rerun search', run: () => { if (session) void runSearch(session.state); },
    });
    setStatus('The corpus was updated; rerun the search.');
    return;
  }
  if (e instanceof ApiError && e.code === 'country_attribution_unavailable' && session !== null) {
    noCountryFilter(session.state);
    return;
  }
  const message = e instanceof ApiError ? e.message : `Something went wrong (${(e as Error).message}).`;
  const transient = e instanceof ServiceUnavailableError || (e instanceof ApiError && e.status === 0);
  showAlert(message, transient && retry ? { label: 'Retry', run: () => { clearAlert(); retry(); } } : undefined);
  setStatus('');
}

/** The release has no publisher-country table: say so plainly, stop examining, offer the search without it. */
function noCountryFilter(state: SearchState): void {
  el.next.hidden = true;
  const countries = byId<HTMLInputElement>('countries');
  countries.disabled = true;
  countries.title = 'This corpus release has no publisher-country information.';
  showAlert('This corpus release has no publisher-country information, so the Publisher countries filter cannot be used.', {
    label: 'Search without the country filter',
    run: () => {
      countries.value = '';
      writeForm({ ...state, filters: { ...state.filters, countries: [] } });
      submit();
    },
  });
  setStatus('');
}

function exportContext(s: SearchSession): ExportContext {
  return { release: s.release, query: s.state.query, index: s.state.index, yearMin: s.state.yearMin, yearMax: s.state.yearMax, filters: s.state.filters, exportedAt: new Date().toISOString() };
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

function renderMoreCards(s: SearchSession, focusFirst = false): void {
  const all = s.articles.articles();
  const batch = all.slice(shown, limit);
  const cards = batch.map((a: MergedArticle) => renderArticle(a, {
    snippet: (x) => s.snippet(x), fullText: (x) => s.fullText(x), release: s.release, queryBytes: new TextEncoder().encode(s.state.query).length, onError: reportError,
  }));
  el.list.append(...cards);
  shown += batch.length;
  el.more.hidden = shown >= all.length;
  el.more.textContent = `Show ${formatCount(Math.min(PAGE_OF_CARDS, all.length - shown))} more of ${formatCount(all.length - shown)} loaded articles`;
  if (focusFirst) cards[0]?.querySelector<HTMLElement>('h3 a, button')?.focus();
  if (s.articles.totals().matchingArticles === 0 && s.articles.totals().examinedOccurrences > 0) {
    replaceChildren(el.list, h('p', { class: 'empty' }, hasFilters(s.state.filters)
      ? 'None of the examined articles match the filters. Examine the next occurrences, or loosen the filters.'
      : 'No articles in the examined pages.'));
  }
}

async function examine(s: SearchSession, gen: number): Promise<void> {
  setStatus(`Examining up to 1,000 occurrences of “${s.state.query}”…`, true);
  el.next.disabled = true;
  try {
    const firstStep = s.articles.totals().examinedOccurrences === 0;
    const added = await s.examineNext();
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

const PAGE_TITLE = document.title;

async function runSearch(state: SearchState): Promise<void> {
  const gen = ++generation;
  // The tab names the search, so several open searches can be told apart.
  document.title = state.query === '' ? PAGE_TITLE : `“${state.query.length > 60 ? `${state.query.slice(0, 60)}…` : state.query}” · ${PAGE_TITLE}`;
  clearAlert();
  session = null;
  shown = 0;
  limit = PAGE_OF_CARDS;
  el.list.replaceChildren();
  el.more.hidden = true;
  if (state.query === '') {
    el.results.hidden = true;
    el.welcome.hidden = false;
    setStatus('');
    return;
  }
  el.welcome.hidden = true;
  // Nothing of the previous search stays on screen (total, chart, exports) while the new one is asked for.
  el.results.hidden = true;
  setStatus(`Searching for “${state.query}”…`, true);
  el.searchButton.disabled = true;
  try {
    const s = await SearchSession.start(api, state);
    if (gen !== generation) return;
    session = s;
    const total = s.found.total_occurrences;
    el.results.hidden = false;
    el.total.textContent = formatCount(total);
    el.totalLabel.textContent = `${total === 1 ? 'occurrence' : 'occurrences'} of “${state.query}”`;
    const years = crawlYears(state);
    const chart = chartData(s.found);
    const peak = chart.bars.reduce<{ period: string; count: number } | null>((best, b) => (best === null || b.count > best.count ? b : best), null);
    const active = chart.bars.filter((b) => b.count > 0).length;
    replaceChildren(el.totalNote,
      `In ${years}, before metadata filters · release ${s.release}`,
      total > 0 && peak !== null ? h('span', { class: 'peak' }, `Found in ${plural(active, chart.yearly ? 'crawl year' : 'crawl month', chart.yearly ? 'crawl years' : 'crawl months')}; most in ${peak.period} (${formatCount(peak.count)}).`) : null);
    replaceChildren(el.chart, renderChart(chart, state.query));
    if (total === 0) {
      renderSummary(s);
      replaceChildren(el.list, h('p', { class: 'empty' }, `No article contains “${state.query}” in ${years}. Matching is exact and case-sensitive: check the spelling and capitals, or widen the crawl years.`));
      setStatus('No occurrences.');
      return;
    }
    await examine(s, gen);
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
  const qs = serializeSearchState(state);
  if (qs !== location.search.replace(/^\?/, '')) history.pushState(null, '', qs === '' ? location.pathname : `?${qs}`);
  writeForm(state);
  void runSearch(state);
}

function exportButton(id: string, make: (s: SearchSession) => { name: string; text: string; type: string }): void {
  byId(id).addEventListener('click', () => {
    if (session === null) return;
    const f = make(session);
    downloadText(f.name, f.text, f.type);
  });
}

exportButton('export-examined-csv', (s) => ({ name: exportFileName('matches', s.state.query, 'csv'), type: 'text/csv;charset=utf-8', text: examinedCsv(exportContext(s), { articles: s.articles.articles(), intervals: s.articles.examinedIntervals(), totals: s.articles.totals() }) }));
exportButton('export-examined-json', (s) => ({ name: exportFileName('matches', s.state.query, 'json'), type: 'application/json', text: examinedJson(exportContext(s), { articles: s.articles.articles(), intervals: s.articles.examinedIntervals(), totals: s.articles.totals() }) }));
exportButton('export-sample-csv', (s) => ({ name: exportFileName('sample', s.state.query, 'csv'), type: 'text/csv;charset=utf-8', text: sampleCsv(exportContext(s), s.sample) }));
exportButton('export-sample-json', (s) => ({ name: exportFileName('sample', s.state.query, 'json'), type: 'application/json', text: sampleJson(exportContext(s), s.sample) }));
exportButton('download-script', (s) => ({
  name: 'news-download.py', type: 'text/x-python;charset=utf-8',
  text: buildDownloadScript({ apiBase: location.origin, query: s.state.query, index: s.state.index, yearMin: s.state.yearMin, yearMax: s.state.yearMax, filters: s.state.filters, generatedAt: new Date().toISOString() }),
}));

el.form.addEventListener('submit', (ev) => { ev.preventDefault(); submit(); });
el.next.addEventListener('click', () => { if (session) void examine(session, generation); });
el.more.addEventListener('click', () => { if (session) { limit += PAGE_OF_CARDS; renderMoreCards(session, true); } });
window.addEventListener('popstate', () => { const s = parseSearchState(location.search); writeForm(s); void runSearch(s); });
// "/" jumps to the phrase box, as on most search sites, unless the reader is typing somewhere.
document.addEventListener('keydown', (ev) => {
  const t = ev.target as HTMLElement | null;
  if (ev.key === '/' && !(t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement)) {
    ev.preventDefault();
    byId('q').focus();
  }
});

/** Describes the corpus in the masthead and offers its indexes; false when `current` is not one of them. */
async function describeCorpus(current: string): Promise<boolean> {
  try {
    const info = await api.info();
    const known = setIndexes(info.available_indexes, current);
    const range = info.date_range.first === null ? 'no crawl periods loaded'
      : info.date_range.first === info.date_range.last ? `crawled ${info.date_range.first}` : `crawled ${info.date_range.first} to ${info.date_range.last}`;
    byId('corpus-info').textContent = `${plural(info.document_count, 'article', 'articles')} · ${range} · release ${info.index_version}`;
    if (!known) showAlert(`This link asks for the index “${current}”, which this service does not have (it has ${info.available_indexes.join(', ')}). Choose an index and search again.`);
    return known;
  } catch {
    // The page still searches without info; it only loses the corpus description and the index list.
    return true;
  }
}

async function start(): Promise<void> {
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
