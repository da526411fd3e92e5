import type { ConcordanceRow } from '../export/concordance-export.ts';

// Strong right-to-left letters (Hebrew, Arabic, Syriac, Thaana, N'Ko and their presentation forms) and common
// strong left-to-right scripts; digits and punctuation are neutral and skipped.
const RTL_STRONG = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
const LTR_STRONG = /[A-Za-z\u00C0-\u024F\u0370-\u03FF\u0400-\u04FF\u3040-\u30FF\u4E00-\u9FFF\uAC00-\uD7AF]/u;

/**
 * A concordance line's direction: that of the match's first strong character, else of the nearest strong one before it.
 * @example lineDirection({ left: 'قال ', match: 'ترامب' }) // 'rtl'
 */
export function lineDirection(r: Pick<ConcordanceRow, 'left' | 'match'>): 'ltr' | 'rtl' {
  for (const text of [r.match, [...r.left].reverse().join('')]) {
    for (const ch of text) {
      if (RTL_STRONG.test(ch)) return 'rtl';
      if (LTR_STRONG.test(ch)) return 'ltr';
    }
  }
  return 'ltr';
}
