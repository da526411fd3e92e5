import type { ApiClient } from '../api/api-client.ts';
import type { KeynessResponse, KeyWord } from '../api/analysis-types.ts';
import { keynessTable } from '../export/analysis-export.ts';
import type { SearchState } from '../search/url-state.ts';
import { formatCount, h, replaceChildren } from '../view/dom.ts';
import { exportButtons } from '../view/export-buttons.ts';
import { readViewKey, saveViewKeys } from '../view/url-keys.ts';
import {
  defaultRanges,
  describeRange,
  formatRange,
  MAX_RANGE_PERIODS,
  parseRange,
  periodsOfShards,
  rangePeriods,
  type PeriodRange,
} from './period-range.ts';

export interface KeynessContext {
  readonly api: ApiClient;
  /** The search's index and Ignore-capitals option (words then count case-folded). */
  readonly search: SearchState;
  readonly release: string;
  onError(e: unknown, retry: () => void): void;
}

/** Key words listed on each side. */
const LISTED = 50;
const score = new Intl.NumberFormat('en', { maximumFractionDigits: 1, minimumFractionDigits: 1 });
const SIDES = ['a', 'b'] as const;

/**
 * Key words: two subcorpora chosen as ranges of crawl periods, and the words relatively more frequent in each
 * (log-likelihood, log ratio, both counts) from the release's word-count tables. Filters and query subcorpora are
 * not offered yet. The ranges are in the URL (`kw_a`, `kw_b`), so a shared link compares the same periods.
 */
export class KeynessPanel {
  readonly element: HTMLElement;
  private periods: string[] = [];
  private answer: { a: PeriodRange; b: PeriodRange; k: KeynessResponse } | null = null;
  private loaded = false;
  private readonly selects = {
    a: { from: this.select('a', 'from'), to: this.select('a', 'to') },
    b: { from: this.select('b', 'from'), to: this.select('b', 'to') },
  };
  private readonly status = h('p', { class: 'analysis-status', 'aria-live': 'polite' });
  private readonly body = h('div', { class: 'analysis-body keyness-sides' });
  private readonly compare = h('button', { type: 'submit', class: 'primary', disabled: true }, 'Compare');

  constructor(private readonly ctx: KeynessContext) {
    const side = (s: 'a' | 'b', name: string) =>
      h(
        'fieldset',
        { class: 'subcorpus' },
        h('legend', {}, name),
        h('label', { for: this.selects[s].from.id }, 'From'),
        this.selects[s].from,
        h('label', { for: this.selects[s].to.id }, 'to'),
        this.selects[s].to,
      );
    this.element = h(
      'div',
      { class: 'analysis keyness', 'data-testid': 'keywords' },
      h(
        'form',
        {
          class: 'keyness-form',
          onsubmit: (ev: Event) => {
            ev.preventDefault();
            void this.load();
          },
        },
        side('a', 'Subcorpus A (crawl periods)'),
        side('b', 'Subcorpus B (crawl periods)'),
        this.compare,
      ),
      h(
        'div',
        { class: 'toolbar analysis-toolbar' },
        h('span', { class: 'spacer' }),
        ...exportButtons(
          'key-words',
          'Key words',
          () => (this.answer === null ? '' : `${formatRange(this.answer.a)}-vs-${formatRange(this.answer.b)}`),
          () =>
            this.answer === null
              ? null
              : keynessTable(
                  { release: this.ctx.release, index: this.ctx.search.index },
                  { a: formatRange(this.answer.a), b: formatRange(this.answer.b) },
                  this.answer.k,
                ),
        ),
      ),
      this.status,
      this.body,
    );
  }

  private select(s: 'a' | 'b', end: 'from' | 'to'): HTMLSelectElement {
    return h('select', { id: `kw-${s}-${end}`, name: `kw-${s}-${end}` });
  }

  /** Reads the release's periods the first time the tab is opened; compares at once when the URL names two ranges. */
  open(): void {
    if (this.loaded) return;
    this.loaded = true;
    void this.init();
  }

  private async init(): Promise<void> {
    this.status.textContent = 'Reading the crawl periods…';
    try {
      const info = await this.ctx.api.info(this.ctx.search.index);
      this.periods = periodsOfShards(info.shards.map((s) => s.shard_id));
    } catch (e) {
      this.status.textContent = 'The crawl periods could not be read.';
      this.ctx.onError(e, () => void this.init());
      return;
    }
    const start = defaultRanges(this.periods);
    if (start === null) {
      this.status.textContent = 'Key words compare two sets of crawl periods; this corpus has only one.';
      return;
    }
    const fromUrl = { a: parseRange(readViewKey('kw_a')), b: parseRange(readViewKey('kw_b')) };
    for (const s of SIDES) {
      const r = fromUrl[s] !== null && rangePeriods(this.periods, fromUrl[s]).length > 0 ? fromUrl[s] : start[s];
      for (const end of ['from', 'to'] as const) {
        const sel = this.selects[s][end];
        sel.replaceChildren(...this.periods.map((p) => h('option', { value: p, selected: p === r[end] }, p)));
      }
    }
    this.compare.disabled = false;
    this.status.textContent = 'Choose two sets of crawl periods and compare their words.';
    if (fromUrl.a !== null && fromUrl.b !== null) await this.load();
  }

  private range(s: 'a' | 'b'): PeriodRange {
    return { from: this.selects[s].from.value, to: this.selects[s].to.value };
  }

  private async load(): Promise<void> {
    const a = this.range('a');
    const b = this.range('b');
    const pa = rangePeriods(this.periods, a);
    const pb = rangePeriods(this.periods, b);
    const problem =
      pa.length === 0 || pb.length === 0
        ? 'Each subcorpus needs a first period no later than its last.'
        : pa.length > MAX_RANGE_PERIODS || pb.length > MAX_RANGE_PERIODS
          ? `A subcorpus spans at most ${MAX_RANGE_PERIODS} crawl periods.`
          : null;
    if (problem !== null) {
      this.status.textContent = problem;
      return;
    }
    saveViewKeys({ kw_a: formatRange(a), kw_b: formatRange(b) });
    this.status.textContent = `Comparing the words of ${describeRange(a)} and ${describeRange(b)}…`;
    this.compare.disabled = true;
    try {
      const k = await this.ctx.api.analysis('/api/v2/keyness', {
        index: this.ctx.search.index,
        a: { periods: pa },
        b: { periods: pb },
        case: this.ctx.search.matching.caseInsensitive ? 'insensitive' : 'sensitive',
        limit: LISTED,
      });
      this.answer = { a, b, k };
      this.render(a, b, k);
    } catch (e) {
      this.status.textContent = 'The key words could not be computed.';
      this.ctx.onError(e, () => void this.load());
    } finally {
      this.compare.disabled = false;
    }
  }

  private render(a: PeriodRange, b: PeriodRange, k: KeynessResponse): void {
    this.status.textContent = `A: ${describeRange(a)}, ${formatCount(k.a.tokens)} words; B: ${describeRange(b)}, ${formatCount(k.b.tokens)} words${k.case === 'insensitive' ? ', capitals ignored' : ''}. Key words by log-likelihood (3.84: p < 0.05); log ratio is log2 of the rate in one over the other.${k.exact ? '' : ' Some counts may be missing (parts answered separately).'}`;
    replaceChildren(
      this.body,
      keyTable(`Key words of A (${describeRange(a)})`, k.a_over_b, 'a'),
      keyTable(`Key words of B (${describeRange(b)})`, k.b_over_a, 'b'),
    );
  }
}

function keyTable(title: string, words: readonly KeyWord[], side: 'a' | 'b'): HTMLElement {
  return h(
    'section',
    { class: 'keyness-side', 'data-side': side },
    h('h3', {}, title),
    words.length === 0
      ? h('p', { class: 'muted' }, 'No word is relatively more frequent here.')
      : h(
          'table',
          { class: 'analysis-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', { scope: 'col' }, 'Word'),
              h('th', { scope: 'col', class: 'num' }, 'In A'),
              h('th', { scope: 'col', class: 'num' }, 'In B'),
              h('th', { scope: 'col', class: 'num', 'aria-sort': 'descending' }, 'LL'),
              h('th', { scope: 'col', class: 'num' }, 'Log ratio'),
            ),
          ),
          h(
            'tbody',
            {},
            ...words.map((w) =>
              h(
                'tr',
                {},
                h('th', { scope: 'row', class: 'word' }, w.word),
                h('td', { class: 'num' }, formatCount(w.count_a)),
                h('td', { class: 'num' }, formatCount(w.count_b)),
                h('td', { class: 'num' }, score.format(w.log_likelihood)),
                h('td', { class: 'num' }, score.format(w.log_ratio)),
              ),
            ),
          ),
        ),
  );
}
