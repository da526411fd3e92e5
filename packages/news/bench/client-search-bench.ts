/**
 * `npm run bench:client-search`: what the page's facets and filtered scan cost on the real corpora, through the real
 * worker and gateway processes and the page's own API client and search session (issue 13 feature 2, bug 6).
 * Writes the section "## News client search: facets and filtered scan" of BENCHMARKS.md.
 *
 * Release: the shared real corpora beside the repository (built once, cached under /tmp).
 */
import { cpus, loadavg, totalmem } from 'node:os';
import {
  ensureCorporaRelease,
  pct,
  spawnListening,
  writeBenchmarkSection,
  ADMISSION_OPEN_ENV,
} from './bench-support.ts';
import { ApiClient } from '../src/client/api/api-client.ts';
import { SearchSession } from '../src/client/search/search-session.ts';
import { EMPTY_STATE, type SearchState } from '../src/client/search/url-state.ts';
import { defaultAutoExamineOptions, examineUntilEnough } from '../src/client/search/auto-examine.ts';

const RELEASE = '/tmp/news-client-search-bench/release';
const VERSION = 'client-search-bench-1';
const SECTION = '## News client search: facets and filtered scan (npm run bench:client-search)';
const QUERIES = ['Bundesregierung', 'oil prices', '東京', 'Zyxwvutsrq unfindable', 'the'];
const RUNS = 7;
const CARDS = 25;

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await f();
  return [r, performance.now() - t];
}

const median = (xs: number[]) =>
  pct(
    [...xs].sort((a, b) => a - b),
    50,
  );
const ms = (x: number) => x.toFixed(0);

/** The old page: one click per step until the first matching card; the new one: one automatic scan to 25 cards. */
async function filteredScan(api: ApiClient, state: SearchState) {
  const s = await SearchSession.start(api, state);
  const [est, estMs] = await timed(() => api.estimate({ ...state, filters: state.filters }));
  let steps = 0;
  let firstCardSteps: number | null = null;
  const [, scanMs] = await timed(async () => {
    await examineUntilEnough(s, {
      ...defaultAutoExamineOptions,
      wanted: CARDS,
      alive: () => true,
      mayFindMore: () => est.matching_articles.high > s.articles.totals().matchingArticles,
      progress: () => {
        steps++;
        if (firstCardSteps === null && s.articles.totals().matchingArticles > 0) firstCardSteps = steps - 1;
      },
    });
  });
  if (firstCardSteps === null && s.articles.totals().matchingArticles > 0) firstCardSteps = steps;
  return {
    est,
    estMs,
    steps,
    firstCardSteps,
    scanMs,
    cards: s.articles.totals().matchingArticles,
    examined: s.articles.totals().examinedOccurrences,
    total: s.found.total_occurrences,
  };
}

async function main(): Promise<void> {
  await ensureCorporaRelease(RELEASE, VERSION);
  const worker = await spawnListening([
    'worker',
    '--release',
    RELEASE,
    '--index-version',
    VERSION,
    '--port',
    '0',
    '--verify',
    'sizes',
  ]);
  const gateway = await spawnListening(['gateway', '--port', '0'], {
    GATEWAY_INDEX_VERSION: VERSION,
    GATEWAY_WORKER_URL: worker.url,
    GATEWAY_ENVIRONMENT: 'development',
    ...ADMISSION_OPEN_ENV,
  });
  const api = new ApiClient(gateway.url);
  try {
    const loadBefore = loadavg()[0] ?? 0;
    const rows: string[] = [];
    for (const query of QUERIES) {
      const state = { ...EMPTY_STATE, query };
      const find: number[] = [];
      const estimate: number[] = [];
      let mode = '';
      for (let i = 0; i < RUNS; i++) {
        find.push((await timed(() => api.find(state)))[1]);
        const [est, t] = await timed(() => api.estimate({ ...state, filters: state.filters }));
        estimate.push(t);
        mode = `${est.mode}, ${est.resolved_ranks.toLocaleString('en')} ranks`;
      }
      rows.push(
        `| ${query} | ${ms(median(find))} | ${ms(median(estimate))} (${mode}) | ${(median(estimate) / median(find)).toFixed(1)} |`,
      );
    }
    const scans: string[] = [];
    for (const [query, languages] of [
      ['the', ['ja']],
      ['Bundesregierung', ['en']],
      ['oil prices', ['de']],
    ] as const) {
      const r = await filteredScan(api, {
        ...EMPTY_STATE,
        query,
        filters: { ...EMPTY_STATE.filters, languages: [...languages] },
      });
      scans.push(
        `| "${query}", languages ${languages.join(';')} | ${r.total.toLocaleString('en')} | ${r.est.matching_articles.value.toLocaleString('en')} (${r.est.mode}) | ` +
          `${r.firstCardSteps ?? '—'} | ${r.steps} steps, ${r.examined.toLocaleString('en')} occurrences, ${r.cards} cards | ${ms(r.scanMs)} | ${ms(r.estMs)} |`,
      );
    }
    const section = `${SECTION}

Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, load ${loadBefore.toFixed(1)} at start (shared, noisy:
compare within a run). Data: the four shared real corpora in one release (${VERSION}). Worker and gateway as
separate processes on loopback; the page's own \`ApiClient\` and \`SearchSession\` in Node (no browser). Median of ${RUNS}.

Facets: \`estimate\` (no filter) beside \`find\` for the issue's five queries. An unfiltered page asks for it only
after its first cards, so it does not delay the first card.

| query | find ms | estimate ms (mode) | estimate / find |
|---|---|---|---|
${rows.join('\n')}

Filtered scan (bug 6): the page now examines by itself until ${CARDS} matching cards (or the estimate's upper bound)
are loaded. "Steps before the first card" is how many "Examine next" clicks the old page needed.

| search | occurrences | matching articles (estimate) | steps before the first card | automatic scan | scan ms | estimate ms |
|---|---|---|---|---|---|---|
${scans.join('\n')}
`;
    writeBenchmarkSection(SECTION, section);
    console.log(section);
  } finally {
    gateway.child.kill();
    worker.child.kill();
  }
}

await main();
