import { ApiError, type ApiClient } from '../api/api-client.ts';
import type { MatchingOptions } from '../search/matching-options.ts';
import type { GetDocResponse, Span } from '../api/types.ts';
import { h, replaceChildren } from '../view/dom.ts';
import { articleHeading } from '../search/lead-sentence.ts';

export interface ReaderContext {
  readonly api: ApiClient;
  readonly index: string;
  readonly query: string;
  readonly release: string;
  readonly matching: MatchingOptions;
}

/** Context bytes each side when the whole article is over the full-text limit. */
const FALLBACK_WINDOW = 10_000;

/** `#occurrence=<shard id>/<rank>`: the link of a concordance line; the search's own URL state stays in the query. */
export function occurrenceHash(shardId: string, rank: number): string {
  return `#occurrence=${encodeURIComponent(shardId)}/${rank}`;
}

export function parseOccurrenceHash(hash: string): { shardId: string; rank: number } | null {
  const m = /^#occurrence=([^/]+)\/(\d{1,15})$/.exec(hash);
  return m === null ? null : { shardId: decodeURIComponent(m[1] as string), rank: Number(m[2]) };
}

const encoder = new TextEncoder();

/** The spans as text with every match marked; the one starting at `needleOffset` bytes is the current one. */
function markedText(
  spans: readonly Span[],
  needleOffset: number,
): { element: HTMLElement; current: HTMLElement | null } {
  const p = h('p', { class: 'snippet full' });
  let bytes = 0;
  let current: HTMLElement | null = null;
  for (const [piece, label] of spans) {
    if (label === null) p.append(piece);
    else {
      const mark = h('mark', {}, piece);
      if (bytes === needleOffset) {
        mark.classList.add('current');
        mark.id = 'current-match';
        current = mark;
      }
      p.append(mark);
    }
    bytes += encoder.encode(piece).length;
  }
  return { element: p, current };
}

/**
 * Opens the article of one occurrence in a dialog, the match scrolled into view and marked as the current one.
 * The whole article is shown when it is under the full-text limit, else a 10,000-byte window each side.
 */
export async function openArticle(
  ctx: ReaderContext,
  shardId: string,
  rank: number,
  onClose: () => void,
): Promise<void> {
  const body = h('div', { class: 'reader-body' }, h('p', { class: 'muted' }, 'Loading the article…'));
  const heading = h('h2', { id: 'reader-title' }, 'Article');
  const dialog = h(
    'dialog',
    { class: 'reader', 'aria-labelledby': 'reader-title' },
    h(
      'div',
      { class: 'reader-head' },
      heading,
      h('button', { type: 'button', class: 'ghost', onclick: () => dialog.close() }, 'Close'),
    ),
    body,
  );
  dialog.addEventListener('close', () => {
    dialog.remove();
    onClose();
  });
  document.body.append(dialog);
  dialog.showModal();
  const req = { index: ctx.index, query: ctx.query, shardId, rank, version: ctx.release, matching: ctx.matching };
  let doc: GetDocResponse;
  try {
    try {
      doc = await ctx.api.getDoc({ ...req, fullText: true });
    } catch (e) {
      if (!(e instanceof ApiError && e.code === 'article_too_large')) throw e;
      doc = await ctx.api.getDoc({ ...req, maxCtxLen: FALLBACK_WINDOW });
    }
  } catch (e) {
    replaceChildren(
      body,
      h('p', { class: 'notice', role: 'alert' }, `The article could not be loaded: ${(e as Error).message}`),
    );
    return;
  }
  const m = doc.metadata;
  const source = [m.sitename ?? m.hostname, m.publish_date?.slice(0, 10) ?? m.warc_date?.slice(0, 10)]
    .filter((x) => typeof x === 'string' && x !== '')
    .join(' · ');
  const { element, current } = markedText(doc.spans, doc.needle_offset);
  const partial = doc.disp_len < doc.doc_len;
  // Headed as the article's card is, so an untitled article reads the same in the list and here.
  heading.textContent = articleHeading(m.title, doc.text, !partial, m.sitename ?? m.hostname ?? '');
  replaceChildren(
    body,
    h('p', { class: 'muted' }, source, source ? ' · ' : '', `occurrence ${rank} of crawl period ${shardId}`),
    partial
      ? h('p', { class: 'notice' }, 'The article is too long to show whole: the text around this occurrence is shown.')
      : null,
    element,
  );
  current?.scrollIntoView({ block: 'center' });
}
