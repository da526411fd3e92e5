/**
 * How the phrase is matched (the API's `case` and `whole_word` options on every call that takes a query).
 * The default is the API's: byte-exact, case-sensitive, any substring.
 */
export interface MatchingOptions {
  /** Also match every spelling equal under Unicode case folding (Merkel ~ MERKEL ~ merkel, ß ~ SS). */
  readonly caseInsensitive: boolean;
  /** Count a match only when no letter or digit touches it on either side. */
  readonly wholeWord: boolean;
}

export const DEFAULT_MATCHING: MatchingOptions = Object.freeze({ caseInsensitive: false, wholeWord: false });

/** The options as request fields; the defaults are left out so requests stay the spec's. */
export function matchingFields(m: MatchingOptions): { case?: 'insensitive'; whole_word?: true } {
  return {
    ...(m.caseInsensitive ? { case: 'insensitive' as const } : {}),
    ...(m.wholeWord ? { whole_word: true as const } : {}),
  };
}

/** URL keys: `case=insensitive`, `whole_word=1` (any other value means the default). */
export function parseMatching(p: URLSearchParams): MatchingOptions {
  return { caseInsensitive: p.get('case') === 'insensitive', wholeWord: p.get('whole_word') === '1' };
}

export function writeMatching(p: URLSearchParams, m: MatchingOptions): void {
  if (m.caseInsensitive) p.set('case', 'insensitive');
  if (m.wholeWord) p.set('whole_word', '1');
}

/**
 * The options in words, for the total's note and the exports.
 * @example describeMatching({ caseInsensitive: true, wholeWord: false }) // 'any capitalisation, also inside words'
 */
export function describeMatching(m: MatchingOptions): string {
  return `${m.caseInsensitive ? 'any capitalisation' : 'exact capitals'}, ${m.wholeWord ? 'whole words only' : 'also inside words'}`;
}
