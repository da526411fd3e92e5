import type { GetDocResponse, Span } from '../api/types.ts';

/** Context bytes on each side of the match in a result snippet. */
export const SNIPPET_CONTEXT_BYTES = 160;

/** Whether a context window was cut inside the article at its start and at its end. */
export interface SnippetCuts {
  readonly cutStart: boolean;
  readonly cutEnd: boolean;
}

/**
 * The window holds SNIPPET_CONTEXT_BYTES each side unless the article ends first (less up to 3 bytes, since the
 * server shrinks the window to whole UTF-8 characters); a full side therefore means the article goes on.
 */
export function snippetCuts(
  doc: Pick<GetDocResponse, 'disp_len' | 'doc_len' | 'needle_offset'>,
  queryBytes: number,
): SnippetCuts {
  const after = doc.disp_len - doc.needle_offset - queryBytes;
  return {
    cutStart: doc.needle_offset >= SNIPPET_CONTEXT_BYTES - 3,
    cutEnd: after >= SNIPPET_CONTEXT_BYTES - 3 && doc.disp_len < doc.doc_len,
  };
}

/** One piece of a snippet as shown: text, and whether it is a match. */
export interface SnippetPiece {
  readonly text: string;
  readonly match: boolean;
}

/**
 * The pieces as the page shows them: a window cut inside the article loses the partial word at that end
 * (the ellipsis stands for it). The same trimming serves the cards and the sample exports.
 */
export function snippetPieces(spans: readonly Span[], cuts: Partial<SnippetCuts> = {}): SnippetPiece[] {
  const pieces = spans.map(([text, label]) => ({ text, match: label !== null }));
  const first = pieces[0];
  if (cuts.cutStart && first && !first.match) first.text = first.text.replace(/^\S*\s+/u, '');
  const last = pieces.at(-1);
  if (cuts.cutEnd && last && !last.match && pieces.length > 1) last.text = last.text.replace(/\s+\S*$/u, '');
  return pieces;
}

/**
 * A snippet as plain text, exactly as a card shows it: whole words, "… " / " …" where the article goes on.
 * @example snippetText([['xt of the ', null], ['Bundestag', 'q'], [' said tod', null]], { cutStart: true, cutEnd: true })
 *   // '… of the Bundestag said …'
 */
export function snippetText(spans: readonly Span[], cuts: SnippetCuts): string {
  const body = snippetPieces(spans, cuts)
    .map((p) => p.text)
    .join('');
  return `${cuts.cutStart ? '… ' : ''}${body}${cuts.cutEnd ? ' …' : ''}`;
}
