/** Why a matching request cannot be answered; the v2 layer maps each code to a 422 with this message. */
export type MatchingErrorCode = 'query_too_complex' | 'whole_word_unsupported' | 'too_many_occurrences';

export class MatchingError extends Error {
  override readonly name = 'MatchingError';
  constructor(
    readonly code: MatchingErrorCode,
    message: string,
    readonly limit?: number,
  ) {
    super(message);
  }
}
