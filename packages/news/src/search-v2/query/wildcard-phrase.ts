/**
 * A phrase with `*` as a whole word (`"oil * prices"`): each `*` stands for exactly one word (a run of letters and
 * digits). It is found through its literal segments ("oil ", " prices"): the rarest drives the search, and a regular
 * expression checks the whole phrase inside each candidate article.
 */
const STAR = /(?<=^|\s)\*(?=\s|$)/u;
const STAR_ALL = /(?<=^|\s)\*(?=\s|$)/gu;

/** The literal parts between the `*` words that hold a word of their own (whitespace-only parts cannot drive). */
export function literalSegments(text: string): string[] {
  return text.split(STAR).filter((s) => s.trim() !== '');
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The phrase as a regular expression over the article's text: byte-exact outside the `*`, or, given `spellings`,
 * each literal part as any of the spellings the shard holds of it (case-insensitive search: all text equal to the
 * part under full case folding, which JavaScript's `i` flag does not do). A part without any spelling never matches.
 */
export function phrasePattern(text: string, spellings?: (part: string) => readonly string[]): RegExp {
  const source = text
    .split(STAR_ALL)
    .map((part) => {
      if (spellings === undefined || part.trim() === '') return escape(part);
      const alternatives = spellings(part);
      return alternatives.length === 0 ? '(?!)' : `(?:${alternatives.map(escape).join('|')})`;
    })
    .join('(?<![\\p{L}\\p{N}])[\\p{L}\\p{N}]+(?![\\p{L}\\p{N}])');
  return new RegExp(source, 'gu');
}

/** Every (overlapping) match of `pattern` in `text`: UTF-16 index and length. */
export function patternMatches(text: string, pattern: RegExp): { index: number; length: number }[] {
  const out: { index: number; length: number }[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    out.push({ index: m.index, length: m[0].length });
    pattern.lastIndex = m.index + 1;
  }
  return out;
}
