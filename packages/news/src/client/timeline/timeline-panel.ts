import type { ApiClient } from '../api/api-client.ts';
import type { TimelineResponse } from '../api/research-types.ts';
import type { EstimateResponse } from '../api/types.ts';
import { exportFileName, filterText } from '../export/export-data.ts';
import { describeMatching } from '../search/matching-options.ts';
import { hasFilters, type SearchState } from '../search/url-state.ts';
import { timelineCsv } from '../export/timeline-export.ts';
import { downloadText, h, replaceChildren, svg } from '../view/dom.ts';
import { quotedQuery } from '../view/quoted-query.ts';
import {
  filteredPeriods,
  formatMeasure,
  MAX_PHRASES,
  measureLabel,
  timelineChart,
  TIMELINE_MEASURES,
  SMOOTHING_SPANS,
  type SmoothingSpan,
  type TimelineMeasure,
  type TimelineSeries,
} from './timeline-data.ts';
import { MAX_COMPARE_LENGTH, parseTimelineView, writeTimelineView } from './timeline-url.ts';
import { drawTimeline, MAX_WIDTH, SERIES_COLOURS, SERIES_DASHES } from './timeline-svg.ts';

export interface TimelineContext {
  readonly api: ApiClient;
  /** The search (its matching options and metadata filters apply to every phrase in the chart). */
  readonly search: SearchState;
  /** The release the search runs on; a compared phrase answered from another release is refused. */
  readonly release: string;
  /**
   * With metadata filters: the search's own estimate (one request shared with the total and the facets). The chart
   * then shows occurrences in articles matching the filters, from the estimate's periods; compared phrases ask
   * for their own estimate with the same filters.
   */
  readonly filteredEstimate: Promise<EstimateResponse> | null;
}

const MEASURE_NAMES: Record<TimelineMeasure, string> = {
  per_million_words: 'Per million words',
  share_of_articles: 'Share of articles',
  per_million_bytes: 'Per million bytes',
  per_1000_articles: 'Per 1,000 articles',
  raw: 'Raw counts',
};

let panelCount = 0;

/**
 * The timeline panel: the search's phrase and up to four compared ones per crawl period, normalised (a toggle)
 * and zoomed to the periods with data, with a legend, values on hover and by keyboard (the plot is a slider over
 * the periods), a text table for screen readers and the "counts per month" CSV.
 */
export class TimelinePanel {
  readonly element: HTMLElement;
  private readonly series: TimelineSeries[] = [];
  /** The measure and compared phrases start as the URL says (`measure`, `compare`), so a shared link shows this chart. */
  private measure: TimelineMeasure = parseTimelineView(location.search).measure;
  private smoothing: SmoothingSpan = parseTimelineView(location.search).smoothing;
  private cursor: number | null = null;
  /** The width the plot was drawn for; a resize redraws it when the width changes by more than a few pixels. */
  private drawnWidth = 0;
  private readonly id = `timeline-${++panelCount}`;
  private readonly body = h('div', { class: 'timeline-body' }, h('p', { class: 'muted' }, 'Loading the timeline…'));
  private readonly problem = h('p', { class: 'timeline-problem', role: 'alert', hidden: true });
  private readonly input = h('input', {
    id: `${this.id}-compare`,
    name: 'compare',
    maxlength: MAX_COMPARE_LENGTH,
    placeholder: 'another phrase',
    autocomplete: 'off',
  });

  constructor(private readonly ctx: TimelineContext) {
    const radios = TIMELINE_MEASURES.map((m) =>
      h(
        'label',
        { class: 'measure-option' },
        h('input', {
          type: 'radio',
          name: `${this.id}-measure`,
          value: m,
          checked: m === this.measure,
          onchange: () => {
            this.measure = m;
            this.render();
            this.saveView();
            if (this.needsShare()) void this.loadShares();
          },
        }),
        ' ',
        MEASURE_NAMES[m],
      ),
    );
    const smooth = h(
      'select',
      {
        id: `${this.id}-smooth`,
        onchange: () => {
          this.smoothing = Number(smooth.value) as SmoothingSpan;
          this.render();
          this.saveView();
        },
      },
      ...SMOOTHING_SPANS.map((n) =>
        h(
          'option',
          { value: n, selected: n === this.smoothing },
          n === 1 ? 'No smoothing' : `${n}-period moving average`,
        ),
      ),
    );
    const compare = h(
      'form',
      {
        class: 'compare',
        onsubmit: (ev: Event) => {
          ev.preventDefault();
          void this.addPhrase(this.input.value);
        },
      },
      h('label', { for: this.input.id }, 'Compare with'),
      this.input,
      h('button', { type: 'submit' }, 'Add'),
    );
    const csv = h(
      'button',
      { type: 'button', class: 'ghost', 'data-export': 'counts-per-month', onclick: () => this.downloadCsv() },
      'Counts per month (CSV)',
    );
    this.element = h(
      'figure',
      { class: 'chart timeline', 'data-testid': 'chart' },
      h('fieldset', { class: 'measure' }, h('legend', { class: 'visually-hidden' }, 'Chart measure'), ...radios),
      h('div', { class: 'smoothing' }, h('label', { for: `${this.id}-smooth` }, 'Smoothing'), smooth),
      this.body,
      this.problem,
      h('div', { class: 'timeline-actions' }, compare, csv),
    );
    new ResizeObserver(() => {
      if (this.series.length > 0 && Math.abs(this.plotWidth() - this.drawnWidth) > 8) this.render();
    }).observe(this.element);
  }

  /** The plot's CSS width (the figure's content box), or the widest drawing before the figure is laid out. */
  private plotWidth(): number {
    const w = this.body.clientWidth;
    return w > 0 ? Math.min(w, MAX_WIDTH) : MAX_WIDTH;
  }

  /** Loads the search's own phrase; errors go to `onError` (the page's alert) since the chart is the search's. */
  async load(onError: (e: unknown) => void): Promise<void> {
    try {
      const [t, est] = await Promise.all([
        this.ctx.api.timeline(this.ctx.search, { share: this.wantsShare() }),
        this.ctx.filteredEstimate,
      ]);
      this.series.splice(0, this.series.length, seriesOf(this.ctx.search.query, t, est));
      this.render();
      for (const phrase of parseTimelineView(location.search).compare) await this.addPhrase(phrase);
    } catch (e) {
      replaceChildren(this.body, h('p', { class: 'muted' }, 'The timeline could not be loaded.'));
      onError(e);
    }
  }

  /** Adds a compared phrase (at most five in all, no repeats); problems are said beside the form. */
  async addPhrase(raw: string): Promise<void> {
    const phrase = raw.trim() === '' ? '' : raw;
    const refuse = (text: string) => {
      this.problem.textContent = text;
      this.problem.hidden = false;
    };
    this.problem.hidden = true;
    if (phrase === '') return refuse('Type a phrase to compare.');
    if (this.series.some((s) => s.phrase === phrase)) return refuse(`${quotedQuery(phrase)} is already in the chart.`);
    if (this.series.length >= MAX_PHRASES)
      return refuse(`The chart compares at most ${MAX_PHRASES} phrases; remove one first.`);
    try {
      const search = { ...this.ctx.search, query: phrase };
      const [t, est] = await Promise.all([
        this.ctx.api.timeline(search, { share: this.wantsShare() }),
        this.ctx.filteredEstimate === null ? null : this.ctx.api.estimate(search),
      ]);
      if (t.index_version !== this.ctx.release || (est !== null && est.index_version !== this.ctx.release))
        return refuse('The corpus was updated since this search; rerun the search to compare phrases.');
      if (this.series.some((s) => s.phrase === phrase) || this.series.length >= MAX_PHRASES) return;
      this.series.push(seriesOf(phrase, t, est));
      this.input.value = '';
      this.render();
      this.saveView();
    } catch (e) {
      refuse(`${quotedQuery(phrase)} could not be added: ${(e as Error).message}`);
    }
  }

  /**
   * The chart shows the share of articles, which the server counts only when asked (it costs several times the
   * counts); with metadata filters there is no share to show (it counts all articles, timeline-data.ts).
   */
  private wantsShare(): boolean {
    return this.measure === 'share_of_articles' && this.ctx.filteredEstimate === null;
  }

  /** Some phrase was loaded without its share of articles while the chart now shows it. */
  private needsShare(): boolean {
    return this.wantsShare() && this.series.some((s) => s.periods.some((p) => p.articles_with_match === undefined));
  }

  /** Loads the share of articles of every phrase in the chart (when the measure is switched to it), then redraws. */
  private async loadShares(): Promise<void> {
    this.problem.hidden = true;
    replaceChildren(this.body, h('p', { class: 'muted' }, 'Counting the articles with a match…'));
    try {
      const phrases = this.series.map((s) => s.phrase);
      const answers = await Promise.all(
        phrases.map((query) => this.ctx.api.timeline({ ...this.ctx.search, query }, { share: true })),
      );
      if (answers.some((t) => t.index_version !== this.ctx.release)) {
        this.problem.textContent = 'The corpus was updated since this search; rerun the search to see the share.';
        this.problem.hidden = false;
      } else {
        // By phrase: one may have been removed (or added, with its share) while these were counted.
        answers.forEach((t, i) => {
          const at = this.series.findIndex((s) => s.phrase === phrases[i]);
          if (at !== -1) this.series[at] = { ...this.series[at]!, periods: t.periods };
        });
      }
    } catch (e) {
      this.problem.textContent = `The share of articles could not be counted: ${(e as Error).message}`;
      this.problem.hidden = false;
    }
    this.render();
  }

  private remove(phrase: string): void {
    const i = this.series.findIndex((s) => s.phrase === phrase);
    if (i > 0) this.series.splice(i, 1);
    this.render();
    this.saveView();
    this.input.focus();
  }

  /** Keeps the measure and compared phrases in the URL (replacing the entry: they are views of one search). */
  private saveView(): void {
    // A new search replaces the panel (and the URL): a late answer of this one must not write into that URL.
    if (!this.element.isConnected) return;
    const qs = writeTimelineView(location.search, {
      measure: this.measure,
      compare: this.series.slice(1).map((s) => s.phrase),
      smoothing: this.smoothing,
    });
    history.replaceState(history.state, '', `${location.pathname}${qs === '' ? '' : `?${qs}`}${location.hash}`);
  }

  private downloadCsv(): void {
    const { search, release } = this.ctx;
    const text = timelineCsv(
      {
        release,
        index: search.index,
        yearMin: search.yearMin,
        yearMax: search.yearMax,
        matching: describeMatching(search.matching),
        filters: filterText(search.filters),
      },
      this.series,
    );
    downloadText(exportFileName('counts-per-month', search.query, 'csv'), text, 'text/csv;charset=utf-8');
  }

  /** With filters the chart counts only matching articles (and says when a count is a sampled estimate). */
  private filterCaption(): string {
    if (!hasFilters(this.ctx.search.filters)) return '';
    const sampled = this.series.some((s) => s.sampled === true);
    return `, in articles matching the filters${sampled ? ' (estimated from a sample)' : ''}`;
  }

  private render(): void {
    const chart = timelineChart(this.series, this.measure, this.smoothing);
    const unit = chart.yearly ? 'crawl year' : 'crawl month';
    const smoothed = this.smoothing > 1 ? `, moving average over ${this.smoothing} periods` : '';
    const caption = `${measureLabel(this.measure).replace(/^[o%]/, (c) => (c === 'o' ? 'O' : c))}, per ${unit}${smoothed}${this.filterCaption()}`;
    const legend = h(
      'ul',
      { class: 'legend' },
      ...this.series.map((s, k) =>
        h(
          'li',
          {},
          swatch(k),
          h('span', { class: 'legend-phrase' }, quotedQuery(s.phrase)),
          k === 0
            ? null
            : h(
                'button',
                {
                  type: 'button',
                  class: 'link-button',
                  'aria-label': `Remove ${quotedQuery(s.phrase)} from the chart`,
                  onclick: () => this.remove(s.phrase),
                },
                'Remove',
              ),
        ),
      ),
    );
    if (chart.periods.length === 0) {
      replaceChildren(
        this.body,
        h('figcaption', {}, caption),
        legend,
        h('p', { class: 'muted' }, 'No occurrences in the selected crawl periods.'),
      );
      return;
    }
    this.drawnWidth = this.plotWidth();
    const geometry = drawTimeline(chart, caption, this.drawnWidth);
    const readout = h('p', { class: 'readout', id: `${this.id}-readout` });
    const describe = (i: number) =>
      `${chart.periods[i] ?? ''}: ${chart.series
        .map((s) => {
          const p = s.points[i];
          return p === undefined
            ? ''
            : `${quotedQuery(s.phrase)} ${formatMeasure(p.value, this.measure)}${this.measure === 'raw' ? '' : ` (${p.occurrences.toLocaleString('en')} occurrences)`}`;
        })
        .join(' · ')}`;
    this.cursor = this.cursor === null ? null : Math.min(this.cursor, chart.periods.length - 1);
    const plot = h('div', {
      class: 'timeline-plot',
      tabindex: 0,
      role: 'slider',
      'aria-label': `${caption}: use the arrow keys to read each ${unit}`,
      'aria-valuemin': 0,
      'aria-valuemax': chart.periods.length - 1,
    });
    const move = (i: number | null) => {
      this.cursor = i;
      geometry.showCursor(i);
      plot.setAttribute('aria-valuenow', String(i ?? 0));
      plot.setAttribute('aria-valuetext', describe(i ?? 0));
      readout.textContent =
        i === null ? `Hover, tap or use the arrow keys on the chart to read each ${unit}.` : describe(i);
    };
    const at = (ev: PointerEvent) => {
      const r = plot.getBoundingClientRect();
      move(geometry.indexAt((ev.clientX - r.left) / r.width));
    };
    plot.addEventListener('pointermove', at);
    plot.addEventListener('pointerdown', at);
    plot.addEventListener('keydown', (ev) => {
      const last = chart.periods.length - 1;
      const cur = this.cursor ?? -1;
      const next = (
        {
          ArrowRight: cur + 1,
          ArrowUp: cur + 1,
          ArrowLeft: cur - 1,
          ArrowDown: cur - 1,
          Home: 0,
          End: last,
          PageUp: cur + 12,
          PageDown: cur - 12,
        } as Record<string, number>
      )[ev.key];
      if (next === undefined) return;
      ev.preventDefault();
      move(Math.max(0, Math.min(last, next)));
    });
    plot.append(geometry.element);
    move(this.cursor);
    replaceChildren(
      this.body,
      h('figcaption', {}, caption),
      legend,
      plot,
      readout,
      dataTable(chart, caption, unit, this.measure),
    );
  }
}

/** A phrase's series: the timeline as it is, or with filters the estimate's matching occurrences per period. */
function seriesOf(phrase: string, t: TimelineResponse, est: EstimateResponse | null): TimelineSeries {
  return est === null
    ? { phrase, periods: t.periods }
    : { phrase, periods: filteredPeriods(t.periods, est.periods), sampled: est.mode !== 'exact' };
}

function swatch(k: number): SVGElement {
  return svg(
    'svg',
    { class: 'swatch', viewBox: '0 0 28 10', 'aria-hidden': 'true' },
    svg('line', {
      x1: 1,
      x2: 27,
      y1: 5,
      y2: 5,
      stroke: SERIES_COLOURS[k % SERIES_COLOURS.length] as string,
      'stroke-width': 3,
      'stroke-dasharray': SERIES_DASHES[k % SERIES_DASHES.length] as string,
    }),
  );
}

/** The same numbers as a table for screen readers; the wrapper hides it (a table ignores `width: 1px`). */
function dataTable(
  chart: ReturnType<typeof timelineChart>,
  caption: string,
  unit: string,
  measure: TimelineMeasure,
): HTMLElement {
  return h(
    'div',
    { class: 'visually-hidden' },
    h(
      'table',
      {},
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h('tr', {}, h('th', { scope: 'col' }, unit), ...chart.series.map((s) => h('th', { scope: 'col' }, s.phrase))),
      ),
      h(
        'tbody',
        {},
        ...chart.periods.map((p, i) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, p),
            ...chart.series.map((s) => h('td', {}, formatMeasure(s.points[i]?.value ?? null, measure))),
          ),
        ),
      ),
    ),
  );
}
