import { selectionFields, type ApiClient } from '../api/api-client.ts';
import type { CollocationSort, CollocationsResponse } from '../api/analysis-types.ts';
import { occurrenceHash } from '../concordance/article-reader.ts';
import { collocationsTable } from '../export/analysis-export.ts';
import type { ExportContext } from '../export/export-data.ts';
import type { SearchState } from '../search/url-state.ts';
import { bar } from '../view/bar.ts';
import { formatCount, h, replaceChildren } from '../view/dom.ts';
import { analysisPanel, analysisTable, firstOpen, sortHeading } from '../view/analysis-panel.ts';
import { quotedQuery } from '../view/quoted-query.ts';
import { readViewKey, saveViewKeys } from '../view/url-keys.ts';
import {
  barShare,
  COLLOCATES_LISTED,
  COLLOCATION_SORTS,
  COLLOCATION_WINDOWS,
  DEFAULT_SORT,
  DEFAULT_WINDOW,
  formatFrequency,
  formatScore,
  parseCollocationView,
  SORT_NAMES,
  WINDOW_NAMES,
  windowSides,
  type CollocationWindow,
} from './collocation-options.ts';

export interface CollocationsContext {
  readonly api: ApiClient;
  /** The search: its years, matching options and metadata filters apply. */
  readonly search: SearchState;
  exportContext(): ExportContext;
  onError(e: unknown, retry: () => void): void;
}

/**
 * The collocations tab: the words within five words of the phrase's occurrences, with frequency (and a bar),
 * logDice, MI and log-likelihood. A column heading sorts by it (the server ranks the whole vocabulary by that
 * score, so each sort is its own request); each collocate opens an occurrence with it in the article reader.
 */
export class CollocationsPanel {
  readonly element: HTMLElement;
  private sort: CollocationSort;
  private window: CollocationWindow;
  private answer: CollocationsResponse | null = null;
  private readonly cache = new Map<string, Promise<CollocationsResponse>>();
  private readonly status: HTMLParagraphElement;
  private readonly body: HTMLDivElement;

  constructor(private readonly ctx: CollocationsContext) {
    const view = parseCollocationView(readViewKey('coll_sort'), readViewKey('coll_window'));
    this.sort = view.sort;
    this.window = view.window;
    const windowSelect = h(
      'select',
      {
        id: 'coll-window',
        onchange: () => {
          this.window = windowSelect.value as CollocationWindow;
          void this.load();
        },
      },
      ...COLLOCATION_WINDOWS.map((w) => h('option', { value: w, selected: w === this.window }, WINDOW_NAMES[w])),
    );
    ({
      element: this.element,
      status: this.status,
      body: this.body,
    } = analysisPanel({
      name: 'collocations',
      testId: 'collocations',
      controls: [h('label', { for: 'coll-window' }, 'Window'), windowSelect],
      exports: {
        kind: 'collocations',
        label: 'Collocations',
        name: () => ctx.search.query,
        table: () => (this.answer === null ? null : collocationsTable(ctx.exportContext(), this.answer, this.sort)),
      },
    }));
  }

  /** Loads the table the first time the tab is opened. */
  readonly open = firstOpen(() => void this.load());

  private request(): Promise<CollocationsResponse> {
    const key = `${this.window}|${this.sort}`;
    let answer = this.cache.get(key);
    if (answer === undefined) {
      answer = this.ctx.api.analysis('/api/v2/collocations', {
        ...selectionFields(this.ctx.search),
        ...windowSides(this.window),
        sort_by: this.sort,
        limit: COLLOCATES_LISTED,
      });
      this.cache.set(key, answer);
      answer.catch(() => this.cache.delete(key));
    }
    return answer;
  }

  private async load(): Promise<void> {
    saveViewKeys({
      coll_sort: this.sort === DEFAULT_SORT ? null : this.sort,
      coll_window: this.window === DEFAULT_WINDOW ? null : this.window,
    });
    const sort = this.sort;
    const window = this.window;
    this.status.textContent = `Counting the words around ${quotedQuery(this.ctx.search.query)}…`;
    try {
      const a = await this.request();
      if (sort !== this.sort || window !== this.window) return;
      this.answer = a;
      this.render(a);
    } catch (e) {
      this.status.textContent = 'The collocations could not be counted.';
      this.ctx.onError(e, () => void this.load());
    }
  }

  private render(a: CollocationsResponse): void {
    const basis =
      a.mode === 'exact'
        ? `all ${formatCount(a.read_occurrences)} occurrences`
        : `a seeded sample of ${formatCount(a.read_occurrences)} of ${formatCount(a.total_occurrences)} occurrences (${a.sampled_shards} crawl ${a.sampled_shards === 1 ? 'period' : 'periods'} sampled; counts scaled up)`;
    this.status.textContent =
      a.collocates.length === 0
        ? `No word occurs at least twice within ${WINDOW_NAMES[this.window]} of ${quotedQuery(a.query)}.`
        : `${a.collocates.length} collocates within ${WINDOW_NAMES[this.window]} of ${quotedQuery(a.query)}, by ${SORT_NAMES[this.sort]}, from ${basis}.`;
    if (a.collocates.length === 0) {
      this.body.replaceChildren();
      return;
    }
    const max = Math.max(...a.collocates.map((c) => c.window_frequency));
    const heading = (s: CollocationSort) =>
      sortHeading(SORT_NAMES[s], s, s === this.sort ? 'descending' : null, () => {
        this.sort = s;
        void this.load();
      });
    replaceChildren(
      this.body,
      analysisTable(
        `Collocates of ${quotedQuery(a.query)}; a column heading sorts by it; each word opens an occurrence with it`,
        [h('th', { scope: 'col' }, 'Collocate'), ...COLLOCATION_SORTS.map(heading)],
        a.collocates.map((c) =>
          h(
            'tr',
            {},
            h(
              'th',
              { scope: 'row', class: 'word' },
              h(
                'a',
                {
                  href: occurrenceHash(c.example.shard_id, c.example.rank),
                  title: `Open an occurrence of ${quotedQuery(a.query)} with “${c.word}” nearby`,
                },
                c.word,
              ),
            ),
            h('td', { class: 'num' }, formatFrequency(c.window_frequency), bar(barShare(c.window_frequency, max))),
            h('td', { class: 'num' }, formatScore(c.log_dice)),
            h('td', { class: 'num' }, formatScore(c.mi)),
            h('td', { class: 'num' }, formatScore(c.log_likelihood)),
          ),
        ),
      ),
    );
  }
}
