import type { ApiClient } from '../api/api-client.ts';
import type { KeynessResponse, KeyWord } from '../api/analysis-types.ts';
import { keynessTable } from '../export/analysis-export.ts';
import type { SearchState } from '../search/url-state.ts';
import { formatCount, h, replaceChildren } from '../view/dom.ts';
import { exportButtons } from '../view/export-buttons.ts';
import { readViewKey, saveViewKeys } from '../view/url-keys.ts';
import {
  defaultRanges,
  formatRange,
  MAX_RANGE_PERIODS,
  periodsOfShards,
  rangePeriods,
  type PeriodRange,
} from './period-range.ts';
import {
  choiceKeys,
  choiceProblem,
  describeSide,
  formatSide,
  MAX_SOURCE_LENGTH,
  parseChoice,
  subcorpusBody,
  type OtherSide,
  type SideChoice,
} from './subcorpus-choice.ts';

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
 * Key words: two subcorpora, each a range of crawl periods optionally narrowed to one outlet (and A to the articles
 * holding the search's phrase; B may be the rest of A's periods), and the words relatively more frequent in each
 * (log-likelihood, log ratio, both counts): from the release's word-count tables for whole periods, from the
 * articles counted (or a stated sample of them) when narrowed. The choice is in the URL (`kw_a`, `kw_b`, `kw_a_src`,
 * `kw_b_src`, `kw_a_q`), so a shared link compares the same subcorpora.
 */
export class KeynessPanel {
  readonly element: HTMLElement;
  private periods: string[] = [];
  private answer: { a: SideChoice; b: OtherSide; k: KeynessResponse } | null = null;
  private loaded = false;
  private readonly selects = {
    a: { from: this.select('a', 'from'), to: this.select('a', 'to') },
    b: { from: this.select('b', 'from'), to: this.select('b', 'to') },
  };
  private readonly status = h('p', { class: 'analysis-status', 'aria-live': 'polite' });
  private readonly body = h('div', { class: 'analysis-body keyness-sides' });
  private readonly compare = h('button', { type: 'submit', class: 'primary', disabled: true }, 'Compare');
  private readonly sources = { a: this.sourceBox('a'), b: this.sourceBox('b') };
  private readonly onlyMatching = h('input', { type: 'checkbox', id: 'kw-a-query', name: 'kw-a-query' });
  private readonly rest = h('input', {
    type: 'checkbox',
    id: 'kw-b-rest',
    name: 'kw-b-rest',
    onchange: () => this.restChanged(),
  });

  constructor(private readonly ctx: KeynessContext) {
    const side = (s: 'a' | 'b', name: string, ...more: HTMLElement[]) =>
      h(
        'fieldset',
        { class: 'subcorpus' },
        h('legend', {}, name),
        h('label', { for: this.selects[s].from.id }, 'From'),
        this.selects[s].from,
        h('label', { for: this.selects[s].to.id }, 'to'),
        this.selects[s].to,
        h('label', { for: this.sources[s].id }, 'Outlet'),
        this.sources[s],
        ...more,
      );
    const check = (box: HTMLInputElement, text: string) =>
      h('span', { class: 'subcorpus-check' }, box, h('label', { for: box.id }, text));
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
        side('a', 'Subcorpus A', check(this.onlyMatching, `only articles with “${ctx.search.query}”`)),
        side('b', 'Subcorpus B', check(this.rest, "the rest of A's periods instead")),
        this.compare,
      ),
      h(
        'div',
        { class: 'toolbar analysis-toolbar' },
        h('span', { class: 'spacer' }),
        ...exportButtons(
          'key-words',
          'Key words',
          () =>
            this.answer === null
              ? ''
              : `${formatRange(this.answer.a.range)}-vs-${this.answer.b === 'rest' ? 'rest' : formatRange(this.answer.b.range)}`,
          () =>
            this.answer === null
              ? null
              : keynessTable(
                  { release: this.ctx.release, index: this.ctx.search.index },
                  {
                    a: formatSide(this.answer.a, this.ctx.search.query),
                    b: formatSide(this.answer.b, this.ctx.search.query),
                  },
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

  private sourceBox(s: 'a' | 'b'): HTMLInputElement {
    return h('input', {
      id: `kw-${s}-source`,
      name: `kw-${s}-source`,
      placeholder: 'any (e.g. reuters.com)',
      maxlength: MAX_SOURCE_LENGTH,
      autocomplete: 'off',
    });
  }

  /** B's own periods and outlet do not apply while B is the rest of A's periods. */
  private restChanged(): void {
    const off = this.rest.checked;
    this.selects.b.from.disabled = off;
    this.selects.b.to.disabled = off;
    this.sources.b.disabled = off;
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
    const linked = parseChoice({
      kw_a: readViewKey('kw_a'),
      kw_b: readViewKey('kw_b'),
      kw_a_src: readViewKey('kw_a_src'),
      kw_b_src: readViewKey('kw_b_src'),
      kw_a_q: readViewKey('kw_a_q'),
    });
    const known = (r: PeriodRange | undefined) => r !== undefined && rangePeriods(this.periods, r).length > 0;
    const ranges = {
      a: linked !== null && known(linked.a.range) ? linked.a.range : start.a,
      b: linked !== null && linked.b !== 'rest' && known(linked.b.range) ? linked.b.range : start.b,
    };
    for (const s of SIDES) {
      for (const end of ['from', 'to'] as const) {
        const sel = this.selects[s][end];
        sel.replaceChildren(...this.periods.map((p) => h('option', { value: p, selected: p === ranges[s][end] }, p)));
      }
    }
    if (linked !== null) {
      this.sources.a.value = linked.a.source ?? '';
      this.onlyMatching.checked = linked.a.query;
      this.sources.b.value = linked.b === 'rest' ? '' : (linked.b.source ?? '');
      this.rest.checked = linked.b === 'rest';
      this.restChanged();
    }
    this.compare.disabled = false;
    this.status.textContent =
      'Choose two subcorpora (crawl periods, an outlet, the articles with the phrase) and compare their words.';
    if (linked !== null) await this.load();
  }

  private side(s: 'a' | 'b'): SideChoice {
    const source = this.sources[s].value.trim();
    return {
      range: { from: this.selects[s].from.value, to: this.selects[s].to.value },
      source: source === '' ? null : source,
      query: s === 'a' && this.onlyMatching.checked,
    };
  }

  private async load(): Promise<void> {
    const a = this.side('a');
    const b: OtherSide = this.rest.checked ? 'rest' : this.side('b');
    const problem = choiceProblem(a, b, this.periods, MAX_RANGE_PERIODS);
    if (problem !== null) {
      this.status.textContent = problem;
      return;
    }
    saveViewKeys(choiceKeys(a, b));
    const phrase = this.ctx.search.query;
    this.status.textContent = `Comparing the words of ${describeSide(a, phrase)} and ${describeSide(b, phrase, a)}…`;
    this.compare.disabled = true;
    try {
      const k = await this.ctx.api.analysis('/api/v2/keyness', {
        index: this.ctx.search.index,
        a: subcorpusBody(a, this.periods, this.ctx.search),
        b: b === 'rest' ? 'rest' : subcorpusBody(b, this.periods, this.ctx.search),
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

  private render(a: SideChoice, b: OtherSide, k: KeynessResponse): void {
    const phrase = this.ctx.search.query;
    const [da, db] = [describeSide(a, phrase), describeSide(b, phrase, a)];
    const sampled = (name: string, t: KeynessResponse['a']) =>
      t.sample === null
        ? ''
        : ` ${name} is estimated from a seeded sample of ${formatCount(t.sample.size)} of its ${formatCount(t.sample.population)} articles.`;
    const explained = k.exact || k.a.sample !== null || k.b.sample !== null;
    this.status.textContent = `A: ${da}, ${formatCount(k.a.tokens)} words; B: ${db}, ${formatCount(k.b.tokens)} words${k.case === 'insensitive' ? ', capitals ignored' : ''}. Key words by log-likelihood (3.84: p < 0.05); log ratio is log2 of the rate in one over the other.${sampled('A', k.a)}${sampled('B', k.b)}${explained ? '' : ' Some counts may be missing (parts answered separately).'}`;
    replaceChildren(
      this.body,
      keyTable(`Key words of A (${da})`, k.a_over_b, 'a'),
      keyTable(`Key words of B (${db})`, k.b_over_a, 'b'),
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
