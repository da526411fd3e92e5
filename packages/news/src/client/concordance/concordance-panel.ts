import type { ApiClient } from '../api/api-client.ts';
import { hasFilters, type SearchState } from '../search/url-state.ts';
import type { FindResponse } from '../api/types.ts';
import { concordanceCsv, concordanceJson, type ConcordanceRow } from '../export/concordance-export.ts';
import { exportFileName, type ExportContext } from '../export/export-data.ts';
import { downloadText, formatCount, h, replaceChildren } from '../view/dom.ts';
import { occurrenceHash } from './article-reader.ts';
import { CONCORDANCE_PAGE, concordancePage, concordanceSize } from './concordance-pages.ts';
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

/**
 * The concordance (keyword in context) tab: one line per occurrence with the left context right-aligned against
 * the match, 1,000 lines a page from the contexts API, sortable by the words either side, exportable as shown.
 */
export class ConcordancePanel {
  readonly element: HTMLElement;
  private page = 0;
  private rows: ConcordanceRow[] = [];
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

  constructor(private readonly ctx: ConcordanceContext) {
    this.total = concordanceSize(ctx.found);
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
      const rows = sortLines(this.rows, this.order);
      downloadText(
        exportFileName('concordance', c.query, ext),
        ext === 'csv' ? concordanceCsv(c, this.order, rows) : concordanceJson(c, this.order, rows),
        ext === 'csv' ? 'text/csv;charset=utf-8' : 'application/json',
      );
    };
    this.element = h(
      'div',
      { class: 'kwic' },
      h(
        'div',
        { class: 'toolbar kwic-toolbar' },
        h('label', { for: 'kwic-order' }, 'Sort this page by'),
        sort,
        this.prev,
        this.next,
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

  /** Loads the first page the first time the tab is opened. */
  open(): void {
    if (!this.loaded) {
      this.loaded = true;
      const page = Number(readViewKey('kwic_page') ?? '1');
      const last = Math.max(0, Math.ceil(this.total / CONCORDANCE_PAGE) - 1);
      void this.show(Number.isInteger(page) && page >= 1 ? Math.min(page - 1, last) : 0);
    }
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
    // Under whole words the pages run over find's candidate ranks; the lines are the whole-word ones among them.
    this.status.textContent =
      this.total === 0
        ? 'No occurrences.'
        : this.ctx.search.matching.wholeWord
          ? `Occurrences among candidates ${formatCount(from + 1)}–${formatCount(Math.min(this.total, from + CONCORDANCE_PAGE))} of ${formatCount(this.total)}: ${formatCount(this.rows.length)} whole-word ${this.rows.length === 1 ? 'line' : 'lines'}, ${order}.`
          : `Occurrences ${formatCount(from + 1)}–${formatCount(from + this.rows.length)} of ${formatCount(this.total)}, ${order}.`;
    const rows = sortLines(this.rows, this.order);
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
