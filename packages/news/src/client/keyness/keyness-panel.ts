import type { ApiClient } from '../api/api-client.ts';
import type { KeynessResponse, KeyWord } from '../api/analysis-types.ts';
import { keynessTable } from '../export/analysis-export.ts';
import type { SearchState } from '../search/url-state.ts';
import { formatCount, h, replaceChildren } from '../view/dom.ts';
import { analysisPanel, analysisTable, firstOpen } from '../view/analysis-panel.ts';
import { quotedQuery } from '../view/quoted-query.ts';
import { readViewKey, saveViewKeys } from '../view/url-keys.ts';
import { defaultRanges, formatRange, MAX_RANGE_PERIODS, rangePeriods, type PeriodRange } from './period-range.ts';
import { readPeriods } from './release-periods.ts';
import { SubcorpusFields } from './subcorpus-fields.ts';
import {
  choiceKeys,
  choiceProblem,
  describeSide,
  formatSide,
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
  private readonly status: HTMLParagraphElement;
  private readonly body: HTMLDivElement;
  private readonly compare = h('button', { type: 'submit', class: 'primary', disabled: true }, 'Compare');
  private readonly rest = h('input', {
    type: 'checkbox',
    id: 'kw-b-rest',
    name: 'kw-b-rest',
    onchange: () => this.restChanged(),
  });
  private readonly sides: { readonly a: SubcorpusFields; readonly b: SubcorpusFields };

  constructor(private readonly ctx: KeynessContext) {
    this.sides = {
      a: new SubcorpusFields('kw-a', 'Subcorpus A', `only articles with ${quotedQuery(ctx.search.query)}`),
      b: new SubcorpusFields(
        'kw-b',
        'Subcorpus B',
        null,
        h(
          'span',
          { class: 'subcorpus-check' },
          this.rest,
          h('label', { for: this.rest.id }, "the rest of A's periods instead"),
        ),
      ),
    };
    ({
      element: this.element,
      status: this.status,
      body: this.body,
    } = analysisPanel({
      name: 'keyness',
      testId: 'keywords',
      bodyClass: 'keyness-sides',
      form: { fields: [this.sides.a.element, this.sides.b.element, this.compare], onSubmit: () => void this.load() },
      exports: {
        kind: 'key-words',
        label: 'Key words',
        name: () =>
          this.answer === null
            ? ''
            : `${formatRange(this.answer.a.range)}-vs-${this.answer.b === 'rest' ? 'rest' : formatRange(this.answer.b.range)}`,
        table: () =>
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
      },
    }));
  }

  /** B's own periods and outlet do not apply while B is the rest of A's periods. */
  private restChanged(): void {
    this.sides.b.disabled = this.rest.checked;
  }

  /** Reads the release's periods the first time the tab is opened; compares at once when the URL names two ranges. */
  readonly open = firstOpen(() => void this.init());

  private async init(): Promise<void> {
    const periods = await readPeriods(this.ctx, this.status, () => void this.init());
    if (periods === null) return;
    this.periods = periods;
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
    this.sides.a.fill(this.periods, { ...(linked?.a ?? { source: null, query: false }), range: ranges.a });
    this.sides.b.fill(this.periods, {
      range: ranges.b,
      source: linked === null || linked.b === 'rest' ? null : linked.b.source,
      query: false,
    });
    this.rest.checked = linked?.b === 'rest';
    this.restChanged();
    this.compare.disabled = false;
    this.status.textContent =
      'Choose two subcorpora (crawl periods, an outlet, the articles with the phrase) and compare their words.';
    if (linked !== null) await this.load();
  }

  private async load(): Promise<void> {
    const a = this.sides.a.choice();
    const b: OtherSide = this.rest.checked ? 'rest' : this.sides.b.choice();
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
      : analysisTable(
          null,
          [
            h('th', { scope: 'col' }, 'Word'),
            h('th', { scope: 'col', class: 'num' }, 'In A'),
            h('th', { scope: 'col', class: 'num' }, 'In B'),
            h('th', { scope: 'col', class: 'num', 'aria-sort': 'descending' }, 'LL'),
            h('th', { scope: 'col', class: 'num' }, 'Log ratio'),
          ],
          words.map((w) =>
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
  );
}
