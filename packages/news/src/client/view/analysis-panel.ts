/**
 * The skeleton every word-analysis tab shares (collocations, continuations, key words, frequency list): an optional
 * form choosing what to count, a toolbar (the view's controls, then its CSV/XLSX exports), a status line, and a body
 * for the table or list; and the table with its hidden caption and sortable headings.
 */
import type { AnalysisTable } from '../export/analysis-export.ts';
import { h } from './dom.ts';
import { exportButtons } from './export-buttons.ts';

export interface PanelParts {
  /** The panel's class (`analysis <name>`). */
  readonly name: string;
  /** `data-testid` of the panel. */
  readonly testId: string;
  /** A form above the toolbar (the subcorpora to count), submitted by Enter or its button. */
  readonly form?: { readonly fields: readonly HTMLElement[]; onSubmit(): void };
  /** Controls at the toolbar's start (a window, a direction, a filter box). */
  readonly controls?: readonly HTMLElement[];
  /** The exports: `news-<kind>-<name()>.csv|xlsx`, "<label> (CSV)", disabled until `table()` has one. */
  readonly exports: {
    readonly kind: string;
    readonly label: string;
    name(): string;
    table(): AnalysisTable | null;
  };
  /** An extra class of the body (the key words' two sides). */
  readonly bodyClass?: string;
}

export interface PanelSkeleton {
  readonly element: HTMLElement;
  /** Says what is counted, how, and what went wrong (announced politely). */
  readonly status: HTMLParagraphElement;
  readonly body: HTMLDivElement;
}

/**
 * Builds a panel's skeleton.
 * @example const { element, status, body } = analysisPanel({ name: 'collocations', testId: 'collocations', exports });
 */
export function analysisPanel(parts: PanelParts): PanelSkeleton {
  const status = h('p', { class: 'analysis-status', 'aria-live': 'polite' });
  const body = h('div', {
    class: parts.bodyClass === undefined ? 'analysis-body' : `analysis-body ${parts.bodyClass}`,
  });
  const form = parts.form;
  const e = parts.exports;
  const element = h(
    'div',
    { class: `analysis ${parts.name}`, 'data-testid': parts.testId },
    form === undefined
      ? null
      : h(
          'form',
          {
            class: 'keyness-form',
            onsubmit: (ev: Event) => {
              ev.preventDefault();
              form.onSubmit();
            },
          },
          ...form.fields,
        ),
    h(
      'div',
      { class: 'toolbar analysis-toolbar' },
      ...(parts.controls ?? []),
      h('span', { class: 'spacer' }),
      ...exportButtons(
        e.kind,
        e.label,
        () => e.name(),
        () => e.table(),
      ),
    ),
    status,
    body,
  );
  return { element, status, body };
}

/**
 * `start` run on the first call only: a tab's view loads when the tab is first opened.
 * @example readonly open = firstOpen(() => void this.load());
 */
export function firstOpen(start: () => void): () => void {
  let opened = false;
  return () => {
    if (opened) return;
    opened = true;
    start();
  };
}

/** A sortable column heading: a button (`data-sort`), `aria-sort` and an arrow while the column is the sort. */
export function sortHeading(
  label: string,
  key: string,
  sorted: 'ascending' | 'descending' | null,
  onSort: () => void,
  cls = 'num',
): HTMLTableCellElement {
  return h(
    'th',
    { scope: 'col', class: cls === '' ? null : cls, 'aria-sort': sorted },
    h(
      'button',
      { type: 'button', class: 'sort-button', 'data-sort': key, onclick: onSort },
      label,
      sorted === null ? null : h('span', { 'aria-hidden': 'true' }, sorted === 'descending' ? ' ▼' : ' ▲'),
    ),
  );
}

/** An analysis table: a caption for screen readers (null: its heading names it), one heading row, the rows. */
export function analysisTable(
  caption: string | null,
  headings: readonly HTMLElement[],
  rows: readonly HTMLTableRowElement[],
): HTMLTableElement {
  return h(
    'table',
    { class: 'analysis-table' },
    caption === null ? null : h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, ...headings)),
    h('tbody', {}, ...rows),
  );
}
