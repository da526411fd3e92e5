import type { Span } from '../api/types.ts';
import { snippetPieces } from '../search/snippet.ts';
import { h } from './dom.ts';

export interface SpanOptions {
  /** The text starts inside the article: drop the cut word at its start and show an ellipsis. */
  readonly cutStart?: boolean;
  /** The text ends inside the article: drop the cut word at its end and show an ellipsis. */
  readonly cutEnd?: boolean;
  /** Keep line breaks (full article) instead of flowing the snippet as one paragraph. */
  readonly preserveLines?: boolean;
}

/** Renders get_doc spans as text with every match in a <mark>; pieces are text nodes, never HTML. */
export function renderSpans(spans: readonly Span[], opts: SpanOptions = {}): HTMLElement {
  const pieces = snippetPieces(spans, opts);
  const p = h('p', { class: opts.preserveLines ? 'snippet full' : 'snippet' });
  if (opts.cutStart) p.append('… ');
  for (const piece of pieces) p.append(piece.match ? h('mark', {}, piece.text) : document.createTextNode(piece.text));
  if (opts.cutEnd) p.append(' …');
  return p;
}
