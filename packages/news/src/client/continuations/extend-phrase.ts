/** Which way the continuations run: the words after the phrase, or before it. */
export type Direction = 'right' | 'left';

export const DIRECTIONS: readonly Direction[] = ['right', 'left'];
export const DIRECTION_NAMES: Readonly<Record<Direction, string>> = {
  right: 'What follows',
  left: 'What precedes',
};
/** Words in a continuation: 1 to 3 (the API's bounds). */
export const CONTINUATION_WORDS = [1, 2, 3] as const;

/** Scripts written without spaces between words: a continuation joins them directly. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/**
 * The phrase extended by a continuation, on its side, with a space between words (none between words of scripts
 * written without spaces).
 * @example extendPhrase('oil prices', ['rose', 'sharply'], 'right') // 'oil prices rose sharply'
 * @example extendPhrase('東京', ['都'], 'right') // '東京都'
 */
export function extendPhrase(phrase: string, words: readonly string[], direction: Direction): string {
  const parts = direction === 'right' ? [phrase, ...words] : [...words, phrase];
  return parts.reduce((out, w) => {
    const joint = UNSPACED.test(out.at(-1) ?? '') && UNSPACED.test(w[0] ?? '') ? '' : ' ';
    return out === '' ? w : `${out}${joint}${w}`;
  }, '');
}

/** The URL's direction and word count (`next_dir`, `next_words`); anything else reads as the default. */
export function parseContinuationView(
  dir: string | null,
  words: string | null,
): { direction: Direction; words: number } {
  return {
    direction: dir === 'left' ? 'left' : 'right',
    words: CONTINUATION_WORDS.find((n) => String(n) === words) ?? 1,
  };
}

const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1, minimumFractionDigits: 1 });
/** A share as a percentage to one decimal. @example formatShare(0.1234) // '12.3%' */
export const formatShare = (share: number): string => percent.format(share);
