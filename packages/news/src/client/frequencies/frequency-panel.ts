import type { ApiClient } from '../api/api-client.ts';
import type { FrequenciesResponse } from '../api/analysis-types.ts';
import { frequencyTable } from '../export/analysis-export.ts';
import { rangePeriods, MAX_RANGE_PERIODS } from '../keyness/period-range.ts';
import { readPeriods } from '../keyness/release-periods.ts';
import { describeSide, formatSide, rangeProblem, subcorpusBody, type SideChoice } from '../keyness/subcorpus-choice.ts';
import { SubcorpusFields } from '../keyness/subcorpus-fields.ts';
import type { SearchState } from '../search/url-state.ts';
import { bar } from '../view/bar.ts';
import { formatCount, h, replaceChildren } from '../view/dom.ts';
import { analysisPanel, analysisTable, firstOpen, sortHeading } from '../view/analysis-panel.ts';
import { quotedQuery } from '../view/quoted-query.ts';
import { readViewKey, saveViewKeys } from '../view/url-keys.ts';
import {
  FREQUENCY_LISTED,
  FREQUENCY_PAGE,
  frequencyKeys,
  nextSort,
  parseFrequencyView,
  rankWords,
  shownWords,
  type FrequencySort,
  type RankedWord,
} from './frequency-view.ts';

export interface FrequencyContext {
  readonly api: ApiClient;
  /** The search's index, phrase and Ignore-capitals option (words then count case-folded). */
  readonly search: SearchState;
  readonly release: string;
  onError(e: unknown, retry: () => void): void;
  /** Searches for a word of the list (a new search, URL updated). */
  searchFor(word: string): void;
}

const rate = new Intl.NumberFormat('en', { maximumSignificantDigits: 3 });
/** A share of the subcorpus's words in percent, three significant digits. */
export const formatWordShare = (share: number): string => `${rate.format(share * 100)}%`;

/**
 * The frequency list: the most frequent words of one subcorpus (crawl periods, optionally one outlet and the
 * articles with the search's phrase), with counts, rates per million words and shares, filtered by a word and sorted
 * by count or word in the page (one request per subcorpus: the API's top 1,000), shown 100 rows at a time. Each word
 * searches for itself. The subcorpus, sort and filter are in the URL (`fl`, `fl_src`, `fl_q`, `fl_sort`, `fl_filter`).
 */
export class FrequencyPanel {
  readonly element: HTMLElement;
  private periods: string[] = [];
  private answer: { choice: SideChoice; f: FrequenciesResponse; words: RankedWord[] } | null = null;
  private shownRows = FREQUENCY_PAGE;
  private sort: FrequencySort;
  private readonly fields: SubcorpusFields;
  private readonly filter = h('input', {
    id: 'fl-filter',
    type: 'search',
    autocomplete: 'off',
    placeholder: 'e.g. oil',
    oninput: () => {
      this.shownRows = FREQUENCY_PAGE;
      this.saveKeys();
      this.render();
    },
  });
  private readonly status: HTMLParagraphElement;
  private readonly body: HTMLDivElement;
  private readonly list = h('button', { type: 'submit', class: 'primary', disabled: true }, 'List words');

  constructor(private readonly ctx: FrequencyContext) {
    const view = parseFrequencyView(this.linkKeys());
    this.sort = view.sort;
    this.filter.value = view.filter;
    this.fields = new SubcorpusFields('fl', 'Subcorpus', `articles with ${quotedQuery(ctx.search.query)} only`);
    ({
      element: this.element,
      status: this.status,
      body: this.body,
    } = analysisPanel({
      name: 'frequencies',
      testId: 'frequencies',
      form: { fields: [this.fields.element, this.list], onSubmit: () => void this.load() },
      controls: [h('label', { for: 'fl-filter' }, 'Find a word'), this.filter],
      exports: {
        kind: 'frequency-list',
        label: 'Frequency list',
        name: () => (this.answer === null ? '' : formatSide(this.answer.choice, ctx.search.query)),
        table: () =>
          this.answer === null
            ? null
            : frequencyTable(
                { release: ctx.release, index: ctx.search.index },
                {
                  subcorpus: formatSide(this.answer.choice, ctx.search.query),
                  sort: this.sort,
                  filter: this.filter.value.trim(),
                },
                this.answer.f,
                shownWords(this.answer.words, this.filter.value, this.sort),
              ),
      },
    }));
  }

  private linkKeys() {
    return {
      fl: readViewKey('fl'),
      fl_src: readViewKey('fl_src'),
      fl_q: readViewKey('fl_q'),
      fl_sort: readViewKey('fl_sort'),
      fl_filter: readViewKey('fl_filter'),
    };
  }

  private saveKeys(): void {
    saveViewKeys(frequencyKeys({ choice: this.answer?.choice ?? null, sort: this.sort, filter: this.filter.value }));
  }

  /** Reads the release's periods the first time the tab is opened, then lists the linked (or newest) period's words. */
  readonly open = firstOpen(() => void this.init());

  private async init(): Promise<void> {
    const periods = await readPeriods(this.ctx, this.status, () => void this.init());
    if (periods === null) return;
    this.periods = periods;
    const newest = this.periods.at(-1);
    if (newest === undefined) {
      this.status.textContent = 'This corpus has no crawl periods to count words in.';
      return;
    }
    const linked = parseFrequencyView(this.linkKeys()).choice;
    const known = linked !== null && rangePeriods(this.periods, linked.range).length > 0;
    this.fields.fill(
      this.periods,
      known ? linked : { range: { from: newest, to: newest }, source: null, query: false },
    );
    this.list.disabled = false;
    await this.load();
  }

  private async load(): Promise<void> {
    const choice = this.fields.choice();
    const problem = rangeProblem(choice, this.periods, MAX_RANGE_PERIODS);
    if (problem !== null) {
      this.status.textContent = problem;
      return;
    }
    const phrase = this.ctx.search.query;
    this.status.textContent = `Counting the words of ${describeSide(choice, phrase)}…`;
    this.list.disabled = true;
    try {
      const f = await this.ctx.api.analysis('/api/v2/frequencies', {
        index: this.ctx.search.index,
        ...subcorpusBody(choice, this.periods, this.ctx.search),
        case: this.ctx.search.matching.caseInsensitive ? 'insensitive' : 'sensitive',
        limit: FREQUENCY_LISTED,
      });
      this.answer = { choice, f, words: rankWords(f.words, f.tokens) };
      this.shownRows = FREQUENCY_PAGE;
      this.saveKeys();
      this.render();
    } catch (e) {
      this.status.textContent = 'The words could not be counted.';
      this.ctx.onError(e, () => void this.load());
    } finally {
      this.list.disabled = false;
    }
  }

  private render(): void {
    const a = this.answer;
    if (a === null) return;
    const { f } = a;
    const words = shownWords(a.words, this.filter.value, this.sort);
    const shown = words.slice(0, this.shownRows);
    const needle = this.filter.value.trim();
    const sample =
      f.sample === null
        ? ''
        : ` Estimated from a seeded sample of ${formatCount(f.sample.size)} of its ${formatCount(f.sample.population)} articles.`;
    const listed =
      f.rest_max === 0
        ? `All ${formatCount(f.words.length)} different words`
        : `The ${formatCount(f.words.length)} most frequent words`;
    this.status.textContent =
      `${listed} of ${describeSide(a.choice, this.ctx.search.query)} (${formatCount(f.tokens)} words${f.case === 'insensitive' ? ', capitals ignored' : ''}).` +
      (needle === '' ? '' : ` ${formatCount(words.length)} of them hold “${needle}”.`) +
      (shown.length === 0 ? '' : ` Showing ${formatCount(shown.length)}; choose a word to search for it.`) +
      sample +
      (f.exact || f.sample !== null ? '' : ' Some counts may be missing (parts answered separately).');
    if (words.length === 0) {
      this.body.replaceChildren();
      return;
    }
    const max = a.words[0]?.count ?? 0;
    replaceChildren(
      this.body,
      analysisTable(
        'Word frequencies; the Word and Count headings sort by them; each word searches for itself',
        [
          h('th', { scope: 'col', class: 'num' }, 'Rank'),
          this.heading('word', 'Word', ''),
          this.heading('count', 'Count', 'num'),
          h('th', { scope: 'col', class: 'num' }, 'Per million'),
          h('th', { scope: 'col', class: 'num' }, 'Share'),
        ],
        shown.map((w) =>
          h(
            'tr',
            {},
            h('td', { class: 'num' }, formatCount(w.rank)),
            h(
              'th',
              { scope: 'row', class: 'word' },
              h(
                'button',
                {
                  type: 'button',
                  class: 'link-button',
                  title: `Search for ${quotedQuery(w.word)}`,
                  onclick: () => {
                    // The word's own occurrences are what its search shows first.
                    saveViewKeys({ tab: null });
                    this.ctx.searchFor(w.word);
                  },
                },
                w.word,
              ),
            ),
            h('td', { class: 'num' }, formatCount(w.count), bar(max > 0 ? w.count / max : 0)),
            h('td', { class: 'num' }, rate.format(w.perMillion)),
            h('td', { class: 'num' }, formatWordShare(w.share)),
          ),
        ),
      ),
      words.length > shown.length
        ? h(
            'div',
            { class: 'more' },
            h(
              'button',
              {
                type: 'button',
                onclick: () => {
                  const next = this.shownRows;
                  this.shownRows += FREQUENCY_PAGE;
                  this.render();
                  // Keyboard focus moves to the first word added.
                  this.body.querySelectorAll<HTMLButtonElement>('tbody .link-button')[next]?.focus();
                },
              },
              `Show ${formatCount(Math.min(FREQUENCY_PAGE, words.length - shown.length))} more of ${formatCount(words.length)}`,
            ),
          )
        : null,
    );
  }

  private heading(column: 'count' | 'word', label: string, cls: string): HTMLElement {
    const on = this.sort.startsWith(column);
    const descending = this.sort === 'count' || this.sort === 'word_desc';
    return sortHeading(
      label,
      column,
      on ? (descending ? 'descending' : 'ascending') : null,
      () => {
        this.sort = nextSort(this.sort, column);
        this.saveKeys();
        this.render();
        // The table is drawn anew: keyboard focus stays on the heading that sorted it.
        this.body.querySelector<HTMLButtonElement>(`[data-sort=${column}]`)?.focus();
      },
      cls,
    );
  }
}
