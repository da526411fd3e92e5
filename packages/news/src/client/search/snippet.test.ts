import { describe, expect, it } from 'vitest';
import { SNIPPET_CONTEXT_BYTES, snippetCuts, snippetText } from './snippet.ts';

describe('snippets', () => {
  it('trims a window cut on both sides to whole words and marks both ends with an ellipsis', () => {
    expect(
      snippetText(
        [
          ['xt of the ', null],
          ['Bundestag', 'q'],
          [' said tod', null],
        ],
        { cutStart: true, cutEnd: true },
      ),
    ).toBe('… of the Bundestag said …');
  });

  it('keeps an article start or end untouched, with no ellipsis there', () => {
    expect(
      snippetText(
        [
          ['The ', null],
          ['Bundestag', 'q'],
          [' met.', null],
        ],
        { cutStart: false, cutEnd: false },
      ),
    ).toBe('The Bundestag met.');
    expect(
      snippetText(
        [
          ['The ', null],
          ['Bundestag', 'q'],
          [' said tod', null],
        ],
        { cutStart: false, cutEnd: true },
      ),
    ).toBe('The Bundestag said …');
  });

  it('never trims into a match at either end', () => {
    expect(
      snippetText(
        [
          ['Bundestag', 'q'],
          [' and', null],
        ],
        { cutStart: true, cutEnd: false },
      ),
    ).toBe('… Bundestag and');
  });

  it('tells a full context side (the article goes on) from an article edge', () => {
    const full = SNIPPET_CONTEXT_BYTES;
    expect(snippetCuts({ needle_offset: full, disp_len: 2 * full + 9, doc_len: 5000 }, 9)).toEqual({
      cutStart: true,
      cutEnd: true,
    });
    expect(snippetCuts({ needle_offset: 12, disp_len: 12 + 9 + 40, doc_len: 61 }, 9)).toEqual({
      cutStart: false,
      cutEnd: false,
    });
  });
});
