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

/**
 * The heading of an article shown on its own (the concordance's reader): its title, else the lead sentence as its
 * card is headed, else (only a window of the text at hand) the card's wording before its context arrives.
 * @example articleHeading(null, 'Die Regierung tagt. Morgen mehr.', true, 'Kanal Kurier') // 'Die Regierung tagt.'
 */
export function articleHeading(title: unknown, text: string, whole: boolean, source: string): string {
  if (typeof title === 'string' && title.trim() !== '') return title.trim();
  const lead = whole ? leadSentence(text) : '';
  return lead !== '' ? lead : `Untitled article from ${source || 'an unknown outlet'}`;
}
