import type { ConcordanceLine } from '../api/research-types.ts';

/** Concordance orders: as found (corpus order), by the words left of the match (nearest first), or right of it. */
export type ConcordanceOrder = 'position' | 'left' | 'right';

const segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'word' }) : null;

/** The words of a text in order (Japanese and Chinese split by the browser's word segmenter, not at spaces). */
export function words(text: string): string[] {
  if (segmenter === null) return text.match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...segmenter.segment(text)].filter((s) => s.isWordLike === true).map((s) => s.segment);
}

/** The key a line sorts by: for `left` the words nearest the match come first (L1, L2, …), for `right` R1, R2, …. */
export function sortKey(
  line: Pick<ConcordanceLine, 'left' | 'right'>,
  order: Exclude<ConcordanceOrder, 'position'>,
): string[] {
  return order === 'left' ? words(line.left).reverse() : words(line.right);
}

/**
 * The lines in the chosen order: words compared one by one with the locale's collation (case and accents
 * second), ties kept in corpus order, so sorting is stable and a reader sees the common patterns together.
 * @example sortLines(lines, 'left') // "… the oil prices", "… high oil prices", "… low oil prices" grouped by L1
 */
export function sortLines<T extends Pick<ConcordanceLine, 'left' | 'right'>>(
  lines: readonly T[],
  order: ConcordanceOrder,
  collator = new Intl.Collator(undefined, { sensitivity: 'base' }),
): T[] {
  if (order === 'position') return [...lines];
  const keyed = lines.map((line, i) => ({ line, i, key: sortKey(line, order) }));
  keyed.sort((a, b) => {
    const n = Math.min(a.key.length, b.key.length);
    for (let k = 0; k < n; k++) {
      const c = collator.compare(a.key[k] as string, b.key[k] as string);
      if (c !== 0) return c;
    }
    return a.key.length - b.key.length || a.i - b.i;
  });
  return keyed.map((k) => k.line);
}
