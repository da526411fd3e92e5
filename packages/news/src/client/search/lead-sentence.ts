/** Longest heading an untitled article gets from its lead, in characters. */
export const LEAD_MAX_CHARS = 140;
/** An untitled article up to this size is read in full for its lead; a longer one is headed by its context words. */
export const LEAD_FETCH_MAX_BYTES = 20_000;

/**
 * The lead sentence of an article's text, as a heading for an article without a title: up to the first sentence
 * end (Latin or CJK punctuation), whitespace folded; a longer lead is cut at a word boundary with "…".
 * @example leadSentence('Die Regierung tagt. Morgen mehr.') // 'Die Regierung tagt.'
 */
export function leadSentence(text: string, max = LEAD_MAX_CHARS): string {
  const t = text.replace(/\s+/g, ' ').trim();
  const end = /[.!?](?=\s|$)|[。！？]/u.exec(t);
  const sentence = end === null ? t : t.slice(0, end.index + 1);
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut.slice(0, max)).replace(/[\s,;:.–-]+$/, '')}…`;
}
