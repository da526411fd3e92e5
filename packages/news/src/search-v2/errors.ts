/**
 * The closed set of v2 error codes (design doc, "v2 shapes the spec does not show"), each with its HTTP status.
 * Domain code throws `V2Error`; the gateway turns it into `{detail, code, ...context}` with `v2ErrorStatus`.
 * Request-shape failures (missing field, wrong type) are not here: they keep the v1 pydantic-style `detail` array.
 */
export const V2_ERROR_STATUS = {
  stale_index_version: 409,
  release_unavailable: 503,
  country_attribution_unavailable: 503,
  year_store_missing: 503,
  unknown_year: 404,
  invalid_year: 422,
  article_too_large: 422,
  invalid_doc_ix: 422,
  response_too_large: 413,
  unknown_index: 422,
  unknown_shard: 422,
  invalid_query: 422,
  invalid_year_range: 422,
  rank_out_of_range: 422,
  too_many_ranks: 422,
  too_many_references: 422,
  query_too_complex: 422,
  whole_word_unsupported: 422,
  /** A `title:` term against a release whose headlines are not indexed (issue 27). */
  headlines_not_indexed: 422,
  too_many_occurrences: 422,
  /** Frequencies, keyness or per-word rates against a release built before word-count tables (issue 28). */
  word_counts_missing: 422,
  /** A crawl period that no shard of the index covers. */
  unknown_period: 422,
  /** A keyness `b: "rest"` of a subcorpus that has no rest (whole periods). */
  invalid_subcorpus: 422,
  /** `dedupe` against a release built without story files (issue 28), or over workers that split the years. */
  stories_unavailable: 422,
  /** A story id that no article of the release has in the request's dedupe mode (search/copies). */
  unknown_story: 422,
  /** The request used its CPU allowance on the worker (per index kind, gateway DESIGN.md "Work limits"). */
  query_too_expensive: 422,
  /** Its deadline passed or its client went away before the worker finished; the gateway no longer waits for it. */
  deadline_exceeded: 503,
} as const satisfies Record<string, 404 | 409 | 413 | 422 | 503>;

export type V2ErrorCode = keyof typeof V2_ERROR_STATUS;
export type V2ErrorStatus = (typeof V2_ERROR_STATUS)[V2ErrorCode];

/** Extra fields of an error body, e.g. `{expected_index_version, index_version}` for a stale version. */
export type V2ErrorContext = Readonly<Record<string, string | number | boolean | null>>;

/** The documented body of every non-validation v2 error. */
export interface V2ErrorBody {
  readonly detail: string;
  readonly code: V2ErrorCode;
  readonly [context: string]: string | number | boolean | null;
}

export class V2Error extends Error {
  override readonly name = 'V2Error';
  constructor(
    readonly code: V2ErrorCode,
    /** What happened and what to do, for the client. */
    readonly detail: string,
    readonly context: V2ErrorContext = {},
  ) {
    super(`${code}: ${detail}`);
  }

  get status(): V2ErrorStatus {
    return V2_ERROR_STATUS[this.code];
  }

  toBody(): V2ErrorBody {
    return { ...this.context, detail: this.detail, code: this.code };
  }
}

export function isV2ErrorCode(value: unknown): value is V2ErrorCode {
  return typeof value === 'string' && Object.hasOwn(V2_ERROR_STATUS, value);
}

/** Status of a code, for a gateway that received `{code}` over the protocol rather than a thrown `V2Error`. */
export function v2ErrorStatus(code: V2ErrorCode): V2ErrorStatus {
  return V2_ERROR_STATUS[code];
}
