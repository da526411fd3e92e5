import { selectionFields, type ApiClient } from '../api/api-client.ts';
import type { NgramsResponse } from '../api/analysis-types.ts';
import { continuationsTable } from '../export/analysis-export.ts';
import type { ExportContext } from '../export/export-data.ts';
import type { SearchState } from '../search/url-state.ts';
import { bar } from '../view/bar.ts';
import { formatCount, h, replaceChildren } from '../view/dom.ts';
import { analysisPanel, firstOpen } from '../view/analysis-panel.ts';
import { quotedQuery } from '../view/quoted-query.ts';
import { readViewKey, saveViewKeys } from '../view/url-keys.ts';
import {
  CONTINUATION_WORDS,
  DIRECTION_NAMES,
  DIRECTIONS,
  extendPhrase,
  formatShare,
  parseContinuationView,
  type Direction,
} from './extend-phrase.ts';

export interface ContinuationsContext {
  readonly api: ApiClient;
  /** The search: its years, matching options and metadata filters apply. */
  readonly search: SearchState;
  exportContext(): ExportContext;
  onError(e: unknown, retry: () => void): void;
  /** Searches for the extended phrase (a new search, URL updated). */
  searchFor(phrase: string): void;
}

/** Continuations listed. */
const LISTED = 50;

/**
 * "What follows / what precedes": the 1–3 words after (or before) the phrase's occurrences, ranked, with counts and
 * shares; a continuation extends the phrase and searches for it.
 */
export class ContinuationsPanel {
  readonly element: HTMLElement;
  private direction: Direction;
  private words: number;
  private answer: NgramsResponse | null = null;
  private readonly status: HTMLParagraphElement;
  private readonly body: HTMLDivElement;

  constructor(private readonly ctx: ContinuationsContext) {
    const view = parseContinuationView(readViewKey('next_dir'), readViewKey('next_words'));
    this.direction = view.direction;
    this.words = view.words;
    const dir = h(
      'select',
      {
        id: 'next-direction',
        onchange: () => {
          this.direction = dir.value as Direction;
          void this.load();
        },
      },
      ...DIRECTIONS.map((d) => h('option', { value: d, selected: d === this.direction }, DIRECTION_NAMES[d])),
    );
    const words = h(
      'select',
      {
        id: 'next-words',
        onchange: () => {
          this.words = Number(words.value);
          void this.load();
        },
      },
      ...CONTINUATION_WORDS.map((n) =>
        h('option', { value: n, selected: n === this.words }, n === 1 ? '1 word' : `${n} words`),
      ),
    );
    ({
      element: this.element,
      status: this.status,
      body: this.body,
    } = analysisPanel({
      name: 'continuations',
      testId: 'continuations',
      controls: [
        h('label', { for: 'next-direction' }, 'Show'),
        dir,
        h('label', { for: 'next-words', class: 'visually-hidden' }, 'Words in each continuation'),
        words,
      ],
      exports: {
        kind: 'continuations',
        label: 'Continuations',
        name: () => ctx.search.query,
        table: () => (this.answer === null ? null : continuationsTable(ctx.exportContext(), this.answer)),
      },
    }));
  }

  /** Loads the list the first time the tab is opened. */
  readonly open = firstOpen(() => void this.load());

  private async load(): Promise<void> {
    saveViewKeys({
      next_dir: this.direction === 'right' ? null : this.direction,
      next_words: this.words === 1 ? null : String(this.words),
    });
    const direction = this.direction;
    const words = this.words;
    this.status.textContent = `Reading the words ${direction === 'right' ? 'after' : 'before'} ${quotedQuery(this.ctx.search.query)}…`;
    try {
      const a = await this.ctx.api.analysis('/api/v2/ngrams', {
        ...selectionFields(this.ctx.search),
        direction,
        words,
        limit: LISTED,
      });
      if (direction !== this.direction || words !== this.words) return;
      this.answer = a;
      this.render(a);
    } catch (e) {
      this.status.textContent = 'The continuations could not be read.';
      this.ctx.onError(e, () => void this.load());
    }
  }

  private render(a: NgramsResponse): void {
    const side = a.direction === 'right' ? 'after' : 'before';
    const counted = a.continuations.reduce((n, c) => n + c.count, 0) + a.other;
    const basis =
      a.mode === 'exact'
        ? `all ${formatCount(a.read_occurrences)} occurrences`
        : `a seeded sample of ${formatCount(a.read_occurrences)} of ${formatCount(a.total_occurrences)} occurrences (counts scaled up)`;
    const left = [
      a.other > 0 ? `${formatCount(Math.round(a.other))} others` : '',
      a.inside_word > 0 ? `${formatCount(Math.round(a.inside_word))} ending inside a longer word` : '',
      a.too_short > 0 ? `${formatCount(Math.round(a.too_short))} too near the article's edge` : '',
    ].filter((t) => t !== '');
    this.status.textContent =
      a.continuations.length === 0
        ? `No word ${side} ${quotedQuery(a.query)}.`
        : `The ${a.words === 1 ? 'word' : `${a.words} words`} ${side} ${quotedQuery(a.query)}, most frequent first, from ${basis}; shares of ${formatCount(Math.round(counted))} continuations${left.length > 0 ? ` (not listed: ${left.join(', ')})` : ''}. Choose one to search for the longer phrase.`;
    const max = a.continuations[0]?.share ?? 0;
    replaceChildren(
      this.body,
      h(
        'ol',
        { class: 'continuation-list' },
        ...a.continuations.map((c) => {
          const phrase = extendPhrase(a.query, c.words, a.direction);
          return h(
            'li',
            {},
            h(
              'button',
              {
                type: 'button',
                class: 'link-button continuation',
                title: `Search for ${quotedQuery(phrase)}`,
                onclick: () => this.ctx.searchFor(phrase),
              },
              phrase,
            ),
            h(
              'span',
              { class: 'continuation-share' },
              `${formatShare(c.share)} · ${formatCount(Math.round(c.count))}`,
              bar(max > 0 ? c.share / max : 0),
            ),
          );
        }),
      ),
    );
  }
}
