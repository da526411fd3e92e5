import type { ApiClient } from '../api/api-client.ts';
import { hasFilters, type SearchState } from '../search/url-state.ts';
import type { FindResponse } from '../api/types.ts';
import { concordanceCsv, concordanceJson, type ConcordanceRow } from '../export/concordance-export.ts';
import { exportFileName, type ExportContext } from '../export/export-data.ts';
import { downloadText, formatCount, h, replaceChildren } from '../view/dom.ts';
import { occurrenceHash } from './article-reader.ts';
import {
  CONCORDANCE_PAGE,
  concordancePage,
  concordanceSize,
  WHOLE_CONCORDANCE_MAX,
  wholeConcordancePages,
  type ContextsSlice,
} from './concordance-pages.ts';
import { sortLines, type ConcordanceOrder } from './concordance-sort.ts';
import { lineDirection } from './line-direction.ts';
import { quotedQuery } from '../view/quoted-query.ts';
import { readViewKey, saveViewKeys } from '../view/url-keys.ts';

export interface ConcordanceContext {
  readonly api: ApiClient;
  readonly found: FindResponse;
  /** The search; its matching options apply to every line (the contexts API takes no metadata filters). */
  readonly search: SearchState;
  readonly release: string;
  exportContext(): ExportContext;
  onError(e: unknown, retry: () => void): void;
}

const ORDER_NAMES: Record<ConcordanceOrder, string> = {
  position: 'Corpus order',
  left: 'Words left of the match',
  right: 'Words right of the match',
};

/** Contexts requests the whole concordance keeps in flight: enough to hide the round trips, few enough to share. */
const WHOLE_IN_FLIGHT = 3;

/**
 * The concordance (keyword in context) tab: one line per occurrence with the left context right-aligned against
 * the match, 1,000 lines a page from the contexts API, sortable by the words either side, exportable as shown.
 * "All lines" loads the whole concordance (up to WHOLE_CONCORDANCE_MAX occurrences), which is then sorted, paged
 * and exported as one list (URL key `kwic_all`).
 */
export class ConcordancePanel {
  readonly element: HTMLElement;
  private page = 0;
  private rows: ConcordanceRow[] = [];
  /** The whole concordance once loaded, and its lines in the current order (sorted once per order). */
  private all: ConcordanceRow[] | null = null;
  private sortedAll: { order: ConcordanceOrder; rows: ConcordanceRow[] } | null = null;
  /** Bumped to abandon a whole-concordance load (Stop, or One page at a time). */
  private loadId = 0;
  /** The order and page start as the URL says (`kwic_sort`, `kwic_page`, 1-based), so a shared link shows them. */
  private order: ConcordanceOrder =
    (Object.keys(ORDER_NAMES) as ConcordanceOrder[]).find((o) => o === readViewKey('kwic_sort')) ?? 'position';
  private loaded = false;
  private readonly total: number;
  private readonly status = h('p', { class: 'kwic-status', 'aria-live': 'polite' });
  private readonly prev = h(
    'button',
    { type: 'button', onclick: () => void this.show(this.page - 1) },
    `Previous ${formatCount(CONCORDANCE_PAGE)}`,
  );
  private readonly next = h(
    'button',
    { type: 'button', onclick: () => void this.show(this.page + 1) },
    `Next ${formatCount(CONCORDANCE_PAGE)}`,
  );
  private readonly lines = h('div', { class: 'kwic-lines' });
  private readonly sortLabel = h('label', { for: 'kwic-order' }, 'Sort this page by');
  private readonly allButton = h('button', { type: 'button', onclick: () => void this.loadAll() });
  private readonly stopButton = h(
    'button',
    { type: 'button', hidden: true, onclick: () => this.leaveAll('Stopped: one page at a time again.') },
    'Stop',
  );
  private readonly pagesButton = h(
    'button',
    { type: 'button', hidden: true, onclick: () => this.leaveAll() },
    'One page at a time',
  );

  constructor(private readonly ctx: ConcordanceContext) {
    this.total = concordanceSize(ctx.found);
    this.allButton.textContent =
      this.total > WHOLE_CONCORDANCE_MAX
        ? `First ${formatCount(WHOLE_CONCORDANCE_MAX)} lines`
        : `All ${formatCount(this.total)} lines`;
    this.allButton.hidden = this.total <= CONCORDANCE_PAGE;
    const sort = h(
      'select',
      {
        id: 'kwic-order',
        onchange: () => {
          this.order = sort.value as ConcordanceOrder;
          saveViewKeys({ kwic_sort: this.order === 'position' ? null : this.order });
          this.render();
        },
      },
      ...(Object.keys(ORDER_NAMES) as ConcordanceOrder[]).map((o) =>
        h('option', { value: o, selected: o === this.order }, ORDER_NAMES[o]),
      ),
    );
    const exportAs = (ext: 'csv' | 'json') => () => {
      const c = this.ctx.exportContext();
      const whole = this.all !== null;
      const rows = whole ? this.sorted() : sortLines(this.rows, this.order);
      const scope = whole ? { lines: 'all' as const, totalOccurrences: this.total } : undefined;
      downloadText(
        exportFileName(whole ? 'concordance-all' : 'concordance', c.query, ext),
        ext === 'csv' ? concordanceCsv(c, this.order, rows, scope) : concordanceJson(c, this.order, rows, scope),
        ext === 'csv' ? 'text/csv;charset=utf-8' : 'application/json',
      );
    };
    this.element = h(
      'div',
      { class: 'kwic' },
      h(
        'div',
        { class: 'toolbar kwic-toolbar' },
        this.sortLabel,
        sort,
        this.prev,
        this.next,
        this.allButton,
        this.stopButton,
        this.pagesButton,
        h('span', { class: 'spacer' }),
        h(
          'button',
          { type: 'button', class: 'ghost', 'data-export': 'concordance-csv', onclick: exportAs('csv') },
          'Concordance (CSV)',
        ),
        h(
          'button',
          { type: 'button', class: 'ghost', 'data-export': 'concordance-json', onclick: exportAs('json') },
          'Concordance (JSON)',
        ),
      ),
      hasFilters(ctx.search.filters)
        ? h(
            'p',
            { class: 'muted kwic-note' },
            'The concordance lists every occurrence of the search: the metadata filters narrow the total, the timeline and the articles, not these lines.',
          )
        : null,
      ctx.search.matching.wholeWord
        ? h(
            'p',
            { class: 'muted kwic-note' },
            'Whole words only: each page checks up to 1,000 candidate occurrences and lists those that are whole words, so a page may hold fewer lines.',
          )
        : null,
      this.status,
      this.lines,
    );
  }

  /** Loads the first page (or the whole concordance, as the URL says) the first time the tab is opened. */
  open(): void {
    if (!this.loaded) {
      this.loaded = true;
      const page = Number(readViewKey('kwic_page') ?? '1');
      const start = Number.isInteger(page) && page >= 1 ? page - 1 : 0;
      if (readViewKey('kwic_all') === '1' && this.total > CONCORDANCE_PAGE) void this.loadAll(start);
      else void this.show(Math.min(start, this.lastPage()));
    }
  }

  /** The lines the pages run over: the whole concordance once loaded, else the find answer's occurrences. */
  private lineCount(): number {
    return this.all?.length ?? this.total;
  }

  private lastPage(): number {
    return Math.max(0, Math.ceil(this.lineCount() / CONCORDANCE_PAGE) - 1);
  }

  /** The whole concordance in the chosen order, sorted once per order. */
  private sorted(): ConcordanceRow[] {
    const all = this.all ?? [];
    if (this.sortedAll?.order !== this.order) this.sortedAll = { order: this.order, rows: sortLines(all, this.order) };
    return this.sortedAll.rows;
  }

  /**
   * Loads every occurrence up to the bound, a few contexts requests at a time, saying how far it got; then the pages,
   * the sort and the exports run over all of them. `page` is the page to show when done (a shared link's).
   */
  private async loadAll(page = 0): Promise<void> {
    const id = ++this.loadId;
    const pages = wholeConcordancePages(this.ctx.found);
    const wanted = Math.min(this.total, WHOLE_CONCORDANCE_MAX);
    const got: ConcordanceRow[][] = new Array<ConcordanceRow[]>(pages.length);
    let lines = 0;
    this.allButton.hidden = true;
    this.stopButton.hidden = false;
    this.prev.disabled = true;
    this.next.disabled = true;
    const progress = () => {
      this.status.textContent = `Loading all lines: ${formatCount(lines)} of ${formatCount(wanted)}…`;
    };
    progress();
    try {
      let next = 0;
      const worker = async () => {
        while (next < pages.length && id === this.loadId) {
          const at = next++;
          const slices = pages[at] ?? [];
          got[at] = await this.linesOf(slices);
          lines += slices.reduce((n, s) => n + (s.rankTo - s.rankFrom), 0);
          if (id === this.loadId) progress();
        }
      };
      await Promise.all(Array.from({ length: Math.min(WHOLE_IN_FLIGHT, pages.length) }, worker));
      if (id !== this.loadId) return;
      this.all = got.flat();
      this.sortedAll = null;
      this.stopButton.hidden = true;
      this.pagesButton.hidden = false;
      this.sortLabel.textContent = 'Sort all lines by';
      saveViewKeys({ kwic_all: '1' });
      await this.show(Math.min(page, this.lastPage()));
    } catch (e) {
      if (id !== this.loadId) return;
      this.leaveAll('The whole concordance could not be loaded: one page at a time again.');
      this.ctx.onError(e, () => void this.loadAll(page));
    }
  }

  /** The lines of some contexts requests (rank ranges of shards), in their order. */
  private async linesOf(slices: readonly ContextsSlice[]): Promise<ConcordanceRow[]> {
    const rows: ConcordanceRow[] = [];
    for (const slice of slices) {
      const r = await this.ctx.api.contexts({ ...this.ctx.search, ...slice, version: this.ctx.release });
      rows.push(...r.contexts.map((c) => ({ ...c, shardId: r.shard_id })));
    }
    return rows;
  }

  /** Back to one page at a time (Stop during a load, or the button after it), at the first page. */
  private leaveAll(note?: string): void {
    this.loadId++;
    this.all = null;
    this.sortedAll = null;
    this.stopButton.hidden = true;
    this.pagesButton.hidden = true;
    this.allButton.hidden = this.total <= CONCORDANCE_PAGE;
    this.sortLabel.textContent = 'Sort this page by';
    saveViewKeys({ kwic_all: null });
    void this.show(0).then(() => {
      if (note !== undefined) this.status.textContent = `${note} ${this.status.textContent ?? ''}`;
    });
  }

  private async show(page: number): Promise<void> {
    const from = page * CONCORDANCE_PAGE;
    if (page < 0 || (from >= this.lineCount() && this.lineCount() > 0)) return;
    if (this.all !== null) {
      this.page = page;
      saveViewKeys({ kwic_page: page === 0 ? null : String(page + 1) });
      this.render();
      this.prev.disabled = page === 0;
      this.next.disabled = from + CONCORDANCE_PAGE >= this.lineCount();
      return;
    }
    this.prev.disabled = true;
    this.next.disabled = true;
    this.status.textContent = `Loading occurrences ${formatCount(from + 1)}–${formatCount(Math.min(this.total, from + CONCORDANCE_PAGE))}…`;
    try {
      const rows = await this.linesOf(concordancePage(this.ctx.found, page));
      this.page = page;
      this.rows = rows;
      saveViewKeys({ kwic_page: page === 0 ? null : String(page + 1) });
      this.render();
    } catch (e) {
      this.status.textContent = 'The concordance could not be loaded.';
      this.ctx.onError(e, () => void this.show(page));
    } finally {
      this.prev.disabled = this.page === 0;
      this.next.disabled = (this.page + 1) * CONCORDANCE_PAGE >= this.total;
    }
  }

  private render(): void {
    const from = this.page * CONCORDANCE_PAGE;
    const order = ORDER_NAMES[this.order].toLowerCase();
    if (this.all !== null)
      return this.renderLines(this.sorted().slice(from, from + CONCORDANCE_PAGE), this.allStatus());
    // Under whole words the pages run over find's candidate ranks; the lines are the whole-word ones among them.
    this.status.textContent =
      this.total === 0
        ? 'No occurrences.'
        : this.ctx.search.matching.wholeWord
          ? `Occurrences among candidates ${formatCount(from + 1)}–${formatCount(Math.min(this.total, from + CONCORDANCE_PAGE))} of ${formatCount(this.total)}: ${formatCount(this.rows.length)} whole-word ${this.rows.length === 1 ? 'line' : 'lines'}, ${order}.`
          : `Occurrences ${formatCount(from + 1)}–${formatCount(from + this.rows.length)} of ${formatCount(this.total)}, ${order}.`;
    this.renderLines(sortLines(this.rows, this.order));
  }

  /** What the whole concordance's status line says: which lines of how many, in which order, and the bound. */
  private allStatus(): string {
    const all = this.all ?? [];
    const from = this.page * CONCORDANCE_PAGE;
    const shown = `Lines ${formatCount(Math.min(all.length, from + 1))}–${formatCount(Math.min(all.length, from + CONCORDANCE_PAGE))}`;
    const order = ORDER_NAMES[this.order].toLowerCase();
    const over = this.total > WHOLE_CONCORDANCE_MAX;
    const of = this.ctx.search.matching.wholeWord
      ? `of ${formatCount(all.length)} whole-word lines among ${over ? `the first ${formatCount(WHOLE_CONCORDANCE_MAX)} of ` : ''}${formatCount(this.total)} candidates`
      : over
        ? `of the first ${formatCount(all.length)} of ${formatCount(this.total)} occurrences (the whole concordance stops at ${formatCount(WHOLE_CONCORDANCE_MAX)})`
        : `of all ${formatCount(all.length)} occurrences`;
    return `${shown} ${of}, ${order}.`;
  }

  private renderLines(rows: readonly ConcordanceRow[], status?: string): void {
    if (status !== undefined) this.status.textContent = status;
    replaceChildren(
      this.lines,
      h(
        'table',
        { class: 'kwic-table' },
        h(
          'caption',
          { class: 'visually-hidden' },
          `Concordance of ${quotedQuery(this.ctx.search.query)}: context before, match, context after (right to left lines show the context before on the right)`,
        ),
        h(
          'thead',
          { class: 'visually-hidden' },
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'Context'),
            h('th', { scope: 'col' }, 'Match'),
            h('th', { scope: 'col' }, 'Context'),
          ),
        ),
        h('tbody', {}, ...rows.map((r) => concordanceLine(r))),
      ),
    );
  }
}

/**
 * One line. The match column takes the width the match needs and the contexts give way, each cut on its far
 * side (issue 29 bug 1). Each cell is bidi-isolated with its own direction, and a right-to-left line puts the
 * context before the match on the right, so Arabic reads before → match → after (bug 3).
 */
function concordanceLine(r: ConcordanceRow): HTMLElement {
  const dir = lineDirection(r);
  const before = h('td', { class: 'kwic-before', dir }, h('span', {}, r.left));
  const after = h('td', { class: 'kwic-after', dir }, h('span', {}, r.right));
  // Past ~40 characters a match may wrap at spaces: it stays whole, on two lines, instead of widening the page.
  const match = h(
    'td',
    { class: [...r.match].length > 40 ? 'kwic-match kwic-long' : 'kwic-match', dir },
    h(
      'a',
      {
        href: occurrenceHash(r.shardId, r.rank),
        title: `${r.title ?? 'Untitled article'}${r.hostname ? ` (${r.hostname})` : ''}`,
      },
      r.match,
    ),
  );
  return h('tr', { 'data-dir': dir }, ...(dir === 'rtl' ? [after, match, before] : [before, match, after]));
}
