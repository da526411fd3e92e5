/** Why the corpus input cannot be read; each message says what to do. */
export type CorpusErrorCode =
  'input_not_found' | 'input_unsupported' | 'input_empty' | 'bad_record' | 'input_unreadable';

export class CorpusError extends Error {
  override readonly name = 'CorpusError';
  constructor(
    readonly code: CorpusErrorCode,
    message: string,
  ) {
    super(message);
  }
}
