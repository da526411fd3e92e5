/**
 * The search's research views beside the article cards: the timeline in the overview, the concordance tab and
 * the article reader a concordance line opens. main.ts calls `show` when a search is found and `reset` on a new one.
 */
import type { ApiClient } from './api/api-client.ts';
import type { EstimateResponse } from './api/types.ts';
import { CollocationsPanel } from './collocations/index.ts';
import { ConcordancePanel, openArticle, parseOccurrenceHash } from './concordance/index.ts';
import { ContinuationsPanel } from './continuations/index.ts';
import { FrequencyPanel } from './frequencies/index.ts';
import { KeynessPanel } from './keyness/index.ts';
import type { ExportContext } from './export/export-data.ts';
import type { SearchSession } from './search/search-session.ts';
import { TimelinePanel } from './timeline/index.ts';
import { byId, replaceChildren } from './view/dom.ts';
import { setupTabs } from './view/tabs.ts';
import { readViewKey, saveViewKeys } from './view/url-keys.ts';

export interface ResultViewsInput {
  readonly session: SearchSession;
  /** A filtered search's estimate (shared with the total); the timeline draws its filtered counts. Null without filters. */
  readonly filteredEstimate: Promise<EstimateResponse> | null;
  /** Settles once the first step's cards are shown (or it failed), not after a filtered scan: the chart is asked for then. */
  readonly firstCards: Promise<void>;
  exportContext(): ExportContext;
  onError(e: unknown, retry?: () => void): void;
  /** False once another search has started: late answers are dropped. */
  current(): boolean;
  /** Starts a new search for a phrase (a continuation extends the search's phrase). */
  searchFor(phrase: string): void;
}

/** The result tabs by their URL name (`tab=…`); the articles tab is the default and leaves no key. */
const TABS = ['articles', 'concordance', 'collocations', 'continuations', 'keywords', 'frequencies'] as const;
type TabName = (typeof TABS)[number];
const tabName = (id: string): TabName => TABS.find((t) => `tab-${t}` === id) ?? 'articles';

/** A view that loads when its tab is first opened. */
interface LazyPanel {
  readonly element: HTMLElement;
  open(): void;
}

export class ResultViews {
  private panels: Partial<Record<TabName, LazyPanel>> = {};
  private input: ResultViewsInput | null = null;
  private readonly chart = byId('chart');
  private readonly tabs = setupTabs(byId('result-tabs'), (id) => {
    const name = tabName(id);
    this.panels[name]?.open();
    // reset() selects the articles tab before the next search reads the URL's tab: only a shown search writes it.
    if (this.input !== null) saveViewKeys({ tab: name === 'articles' ? null : name });
  });

  /** The concordance link that opened the reader; focus returns to it on close. */
  private opener: HTMLElement | null = null;

  constructor(private readonly api: ApiClient) {
    window.addEventListener('hashchange', () => this.openFromHash());
    // A plain click opens the reader in place: following the fragment link would fire popstate, which reruns the
    // search. The link stays a real URL for a new tab, a copied link or a bookmark.
    for (const name of TABS.slice(1))
      byId(`panel-${name}`).addEventListener('click', (ev) => {
        const link = (ev.target as Element | null)?.closest<HTMLAnchorElement>('a[href^="#occurrence="]');
        if (
          link === null ||
          link === undefined ||
          ev.button !== 0 ||
          ev.ctrlKey ||
          ev.metaKey ||
          ev.shiftKey ||
          ev.altKey
        )
          return;
        ev.preventDefault();
        this.opener = link;
        history.replaceState(history.state, '', link.hash);
        this.openFromHash();
      });
  }

  reset(): void {
    this.input = null;
    this.panels = {};
    this.chart.replaceChildren();
    for (const name of TABS.slice(1)) byId(`panel-${name}`).replaceChildren();
    this.tabs.select('tab-articles');
  }

  show(input: ResultViewsInput): void {
    this.input = input;
    const s = input.session;
    const timeline = new TimelinePanel({
      api: this.api,
      search: s.state,
      release: s.release,
      filteredEstimate: input.filteredEstimate,
    });
    replaceChildren(this.chart, timeline.element);
    void input.firstCards.then(() => {
      if (input.current())
        void timeline.load((e) => {
          if (input.current()) input.onError(e);
        });
    });
    const onError = (e: unknown, retry?: () => void) => {
      if (input.current()) input.onError(e, retry);
    };
    const common = { api: this.api, search: s.state, exportContext: () => input.exportContext(), onError };
    this.panels = {
      concordance: new ConcordancePanel({ ...common, found: s.found, release: s.release }),
      collocations: new CollocationsPanel(common),
      continuations: new ContinuationsPanel({ ...common, searchFor: (phrase) => input.searchFor(phrase) }),
      keywords: new KeynessPanel({ ...common, release: s.release }),
      frequencies: new FrequencyPanel({
        ...common,
        release: s.release,
        searchFor: (word) => input.searchFor(word),
      }),
    };
    for (const [name, panel] of Object.entries(this.panels)) replaceChildren(byId(`panel-${name}`), panel.element);
    this.tabs.select(`tab-${tabName(`tab-${readViewKey('tab') ?? ''}`)}`);
    this.openFromHash();
  }

  /** A `#occurrence=…` link (a concordance line, or a shared URL) opens that article over the page. */
  private openFromHash(): void {
    const target = parseOccurrenceHash(location.hash);
    const input = this.input;
    if (target === null || input === null || document.querySelector('dialog.reader') !== null) return;
    const s = input.session;
    const back = this.opener;
    this.opener = null;
    void openArticle(
      { api: this.api, index: s.state.index, query: s.state.query, release: s.release, matching: s.state.matching },
      target.shardId,
      target.rank,
      () => {
        // Closing the reader drops the hash (no new history entry) and returns focus to the line that opened it.
        history.replaceState(history.state, '', location.pathname + location.search);
        back?.focus();
      },
    );
  }
}
