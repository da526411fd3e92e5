import { ApiError, ServiceUnavailableError } from '../api/api-client.ts';

export interface PlainError {
  readonly message: string;
  /** Waiting may help (busy, restarting, unreachable, a server fault): the page offers Retry. */
  readonly retry: boolean;
}

/** Refusals whose API wording names request fields; a reader gets what to change in the form instead. */
const PLAIN_BY_CODE: Readonly<Record<string, string>> = {
  whole_word_unsupported:
    'Whole words only cannot be used for Chinese, Japanese, Thai, Lao, Khmer or Burmese text, which does not separate words with spaces. Turn off Whole words only and search again.',
  too_many_occurrences:
    'This phrase occurs too often to check every occurrence for whole words. Narrow the crawl years, search a longer phrase, or turn off Whole words only.',
  query_too_complex:
    'Ignoring capitals gives this phrase too many spellings to search. Turn off Ignore capitals or search a longer phrase.',
  query_too_expensive:
    'This search takes too long to answer exactly. Narrow the crawl years, search a longer phrase, or turn off Whole words only or Ignore capitals.',
};

/**
 * What the page says when a request fails: plain words and whether Retry is offered. API error codes and
 * server wording ("worker", "release identity", request field names) never reach the reader.
 */
export function plainError(e: unknown): PlainError {
  if (e instanceof ServiceUnavailableError) return { message: e.message, retry: true };
  if (!(e instanceof ApiError))
    return { message: 'Something went wrong in this page. Reload it and try again.', retry: false };
  if (e.status === 0)
    return { message: 'The search service cannot be reached. Check the connection, then press Retry.', retry: true };
  if (e.status >= 500) {
    return {
      message:
        'The search service ran into a problem and could not answer. Press Retry; if it happens again, please tell the operator (see Impressum).',
      retry: true,
    };
  }
  const plain = e.code === null ? undefined : PLAIN_BY_CODE[e.code];
  return { message: plain ?? e.message, retry: false };
}
