import type { ApiClient } from '../api/api-client.ts';
import { hasFilters, type SearchState } from '../search/url-state.ts';
import type { FindResponse } from '../api/types.ts';
import { concordanceCsv, concordanceJson, type ConcordanceRow } from '../export/concordance-export.ts';
import { exportFileName, type ExportContext } from '../export/export-data.ts';
import { downloadText, formatCount, h, replaceChildren } from '../view/dom.ts';
import { occurrenceHash } from './article-reader.ts';
import { CONCORDANCE_PAGE, concordancePage, concordanceSize } from './concordance-pages.ts';
import { sortLines, type ConcordanceOrder } from './concordance-sort.ts';

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
  position: 'Corpus order', left: 'Words left of the match', right: 'Words right of the match',
};

/**
 * The concordance (keyword in context) tab: one line per occurrence with the left context right-aligned against
 * the match, 1,000 lines a page from the contexts API, sortable by the words either side, exportable as shown.
 */
export class ConcordancePanel {
  readonly element: HTMLElement;
  private page = 0;
  private rows: ConcordanceRow[] = [];
  private order: ConcordanceOrder = 'position';
  private loaded = false;
  private readonly total: number;
  private readonly status = h('p', { class: 'kwic-status', 'aria-live': 'polite' });
  private readonly prev = h('button', { type: 'button', onclick: () => void this.show(this.page - 1) }, `Previous ${formatCount(CONCORDANCE_PAGE)}`);
  private readonly next = h('button', { type: 'button', onclick: () => void this.show(this.page + 1) }, `Next ${formatCount(CONCORDANCE_PAGE)}`);
  private readonly lines = h('div', { class: 'kwic-lines' });

  constructor(private readonly ctx: ConcordanceContext) {
    this.total = concordanceSize(ctx.found);
    const sort = h('select', { id: 'kwic-order', onchange: () => { this.order = sort.value as ConcordanceOrder; this.render(); } },
      ...(Object.keys(ORDER_NAMES) as ConcordanceOrder[]).map((o) => h('option', { value: o }, ORDER_NAMES[o])));
    const exportAs = (ext: 'csv' | 'json') => () => {
      const c = this.ctx.exportContext();
      const rows = sortLines(this.rows, this.order);
      downloadText(exportFileName('concordance', c.query, ext), ext === 'csv' ? concordanceCsv(c, this.order, rows) : concordanceJson(c, this.order, rows),
        ext === 'csv' ? 'text/csv;charset=utf-8' : 'application/json');
    };
    this.element = h('div', { class: 'kwic' },
      h('div', { class: 'toolbar kwic-toolbar' },
        h('label', { for: 'kwic-order' }, 'Sort this page by'), sort, this.prev, this.next,
        h('span', { class: 'spacer' }),
        h('button', { type: 'button', class: 'ghost', 'data-export': 'concordance-csv', onclick: exportAs('csv') }, 'Concordance (CSV)'),
        h('button', { type: 'button', class: 'ghost', 'data-export': 'concordance-json', onclick: exportAs('json') }, 'Concordance (JSON)')),
      hasFilters(ctx.search.filters) ? h('p', { class: 'muted kwic-note' }, 'The concordance lists every occurrence of the search: the metadata filters narrow the total, the timeline and the articles, not these lines.') : null,
      ctx.search.matching.wholeWord ? h('p', { class: 'muted kwic-note' }, 'Whole words only: each page checks up to 1,000 candidate occurrences and lists those that are whole words, so a page may hold fewer lines.') : null,
      this.status, this.lines);
  }

  /** Loads the first page the first time the tab is opened. */
  open(): void {
    if (!this.loaded) { this.loaded = true; void this.show(0); }
  }

  private async show(page: number): Promise<void> {
    const from = page * CONCORDANCE_PAGE;
    if (page < 0 || (from >= this.total && this.total > 0)) return;
    this.prev.disabled = true;
    this.next.disabled = true;
    this.status.textContent = `Loading occurrences ${formatCount(from + 1)}–${formatCount(Math.min(this.total, from + CONCORDANCE_PAGE))}…`;
    try {
      const rows: ConcordanceRow[] = [];
      for (const slice of concordancePage(this.ctx.found, page)) {
        const r = await this.ctx.api.contexts({ ...this.ctx.search, ...slice, version: this.ctx.release });
        rows.push(...r.contexts.map((c) => ({ ...c, shardId: r.shard_id })));
      }
      this.page = page;
      this.rows = rows;
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
    // Under whole words the pages run over find's candidate ranks; the lines are the whole-word ones among them.
    this.status.textContent = this.total === 0 ? 'No occurrences.'
      : this.ctx.search.matching.wholeWord
        ? `Occurrences among candidates ${formatCount(from + 1)}–${formatCount(Math.min(this.total, from + CONCORDANCE_PAGE))} of ${formatCount(this.total)}: ${formatCount(this.rows.length)} whole-word ${this.rows.length === 1 ? 'line' : 'lines'}, ${order}.`
        : `Occurrences ${formatCount(from + 1)}–${formatCount(from + this.rows.length)} of ${formatCount(this.total)}, ${order}.`;
    const rows = sortLines(this.rows, this.order);
    // The match column is as wide as the longest match (at most 24 characters), so the contexts sit right against it.
    const matchCol = h('col', { class: 'kwic-match-col' });
    matchCol.style.width = `${Math.min(24, Math.max(4, ...rows.map((r) => [...r.match].length))) + 1}ch`;
    replaceChildren(this.lines, h('table', { class: 'kwic-table' },
      h('colgroup', {}, h('col', {}), matchCol, h('col', {})),
      h('caption', { class: 'visually-hidden' }, `Concordance of “${this.ctx.search.query}”: left context, match, right context`),
      h('thead', { class: 'visually-hidden' }, h('tr', {}, h('th', { scope: 'col' }, 'Left context'), h('th', { scope: 'col' }, 'Match'), h('th', { scope: 'col' }, 'Right context'))),
      h('tbody', {}, ...rows.map((r) => h('tr', {},
        h('td', { class: 'kwic-left' }, h('span', {}, r.left)),
        h('td', { class: 'kwic-match' }, h('a', { href: occurrenceHash(r.shardId, r.rank), title: `${r.title ?? 'Untitled article'}${r.hostname ? ` (${r.hostname})` : ''}` }, r.match)),
        h('td', { class: 'kwic-right' }, h('span', {}, r.right)))))));
  }
}
