import { h } from '../view/dom.ts';
import { MAX_SOURCE_LENGTH, type SideChoice } from './subcorpus-choice.ts';

/**
 * The fieldset that chooses one subcorpus: a range of crawl periods, an outlet, and (when `phrase` is given) only
 * the articles with the search's phrase (`queryLabel` names that box). Ids are `<prefix>-from`, `-to`, `-source`, `-query`.
 * @example form.append(new SubcorpusFields('fl', 'Subcorpus', 'articles with “oil” only').element);
 */
export class SubcorpusFields {
  readonly element: HTMLFieldSetElement;
  readonly from: HTMLSelectElement;
  readonly to: HTMLSelectElement;
  readonly source: HTMLInputElement;
  readonly query: HTMLInputElement | null;

  constructor(prefix: string, legend: string, queryLabel: string | null, ...more: HTMLElement[]) {
    this.from = h('select', { id: `${prefix}-from`, name: `${prefix}-from` });
    this.to = h('select', { id: `${prefix}-to`, name: `${prefix}-to` });
    this.source = h('input', {
      id: `${prefix}-source`,
      name: `${prefix}-source`,
      placeholder: 'any (e.g. reuters.com)',
      maxlength: MAX_SOURCE_LENGTH,
      autocomplete: 'off',
    });
    this.query =
      queryLabel === null ? null : h('input', { type: 'checkbox', id: `${prefix}-query`, name: `${prefix}-query` });
    this.element = h(
      'fieldset',
      { class: 'subcorpus' },
      h('legend', {}, legend),
      h('label', { for: this.from.id }, 'From'),
      this.from,
      h('label', { for: this.to.id }, 'to'),
      this.to,
      h('label', { for: this.source.id }, 'Outlet'),
      this.source,
      this.query === null || queryLabel === null
        ? null
        : h('span', { class: 'subcorpus-check' }, this.query, h('label', { for: this.query.id }, queryLabel)),
      ...more,
    );
  }

  /** Offers `periods` at both ends and shows `choice`. */
  fill(periods: readonly string[], choice: SideChoice): void {
    for (const [sel, chosen] of [
      [this.from, choice.range.from],
      [this.to, choice.range.to],
    ] as const)
      sel.replaceChildren(...periods.map((p) => h('option', { value: p, selected: p === chosen }, p)));
    this.source.value = choice.source ?? '';
    if (this.query !== null) this.query.checked = choice.query;
  }

  /** The subcorpus as chosen. */
  choice(): SideChoice {
    const source = this.source.value.trim();
    return {
      range: { from: this.from.value, to: this.to.value },
      source: source === '' ? null : source,
      query: this.query?.checked === true,
    };
  }

  /** B's own fields do not apply while it is the rest of A's periods. */
  set disabled(off: boolean) {
    this.from.disabled = off;
    this.to.disabled = off;
    this.source.disabled = off;
  }
}
