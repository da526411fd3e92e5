// The closed set of error codes this service answers with, mapped to HTTP status in one place. Codes and messages
// are the plugin's and WordPress core's (events-compat.md §2), so clients written against the plugin keep working.

export const ERROR_STATUS = {
  rest_no_route: 404,
  rest_missing_callback_param: 400,
  rest_invalid_param: 400,
  rest_forbidden: 401, // 403 when logged in: see forbidden()
  rest_not_logged_in: 401,
  rest_invalid_json: 400,
  rest_payload_too_large: 413,
  rest_bad_request: 400,
  rest_invalid_namespace: 404,
  rest_cannot_edit_others: 403,
  invalid_username: 401,
  incorrect_password: 401,
  // wp/v2/users (src/wp-core): core's codes; the 401s are 403 when logged in (rest_authorization_required_code).
  rest_user_invalid_id: 404,
  rest_user_cannot_view: 401,
  rest_forbidden_context: 401,
  rest_forbidden_orderby: 401,
  rest_forbidden_who: 401,
  rest_too_many_attempts: 429,
  'rest-event-not-found': 404,
  'rest-invalid-event-id': 400,
  'event-no-longer-available': 403,
  'event-not-accessible': 403,
  'event-password-protected': 403,
  'event-is-in-trash': 410,
  'event-archive-page-not-found': 404,
  'venue-archive-page-not-found': 404,
  'organizer-archive-page-not-found': 404,
  'venue-not-accessible': 403,
  'organizer-not-accessible': 403,
  'venue-is-in-trash': 410,
  'organizer-is-in-trash': 410,
  'could-not-create-venue': 400,
  'could-not-create-organizer': 400,
  'invalid-linked-post-id': 400,
  term_exists: 400,
  rest_taxonomy_not_hierarchical: 400,
  // The plugin answers 500 (no status attached); a client error is a 4xx here (events/README.md, differences).
  duplicate_term_slug: 400,
  internal_server_error: 500,
  // tec/v1 (src/tec-v1): the experimental-endpoint gate.
  missing_experimental_endpoint_acknowledgement: 400,
  // Our own namespace (src/import): a CSV file refused as a whole.
  csv_invalid: 400,
  csv_too_large: 413,
  // Our own namespace (src/webhook): an unknown subscription or delivery.
  webhook_not_found: 404,
  // Not in the plugin (WordPress would answer its own database error page): the store is unreachable or restarting.
  db_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** A typed error that the app's one error handler turns into the WordPress envelope `{code, message, data}`. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly status: number = ERROR_STATUS[code],
    /** Response headers that belong to this answer (`Retry-After` of a 429 or 503). */
    readonly headers: Readonly<Record<string, string | number>> = {},
  ) {
    super(message);
  }

  toBody(): { code: string; message: string; data: Record<string, unknown> } {
    return { code: this.code, message: this.message, data: { status: this.status, ...this.extra } };
  }
}

export const noRoute = (): ApiError =>
  new ApiError('rest_no_route', 'No route was found matching the URL and request method.');

/** Seconds a client is asked to wait before retrying while the database is unreachable. */
export const DB_RETRY_AFTER_SECONDS = 1;

/** 503 while the database is down or restarting; the service reconnects by itself. */
export const dbUnavailable = (): ApiError =>
  new ApiError(
    'db_unavailable',
    'The database is temporarily unavailable. Try again shortly.',
    {},
    ERROR_STATUS.db_unavailable,
    { 'Retry-After': DB_RETRY_AFTER_SECONDS },
  );

/** WordPress answers a failed permission check with 401 when logged out and 403 when logged in. */
export const forbidden = (loggedIn: boolean): ApiError =>
  new ApiError('rest_forbidden', 'Sorry, you are not allowed to do that.', {}, loggedIn ? 403 : 401);

export interface ParamProblem {
  message: string;
  detail?: { code: string; message: string; data: unknown };
}

/** 400 `rest_invalid_param` with core's per-parameter `params` and `details` maps. */
export function invalidParams(problems: Record<string, ParamProblem>): ApiError {
  const names = Object.keys(problems);
  const params: Record<string, string> = {};
  const details: Record<string, unknown> = {};
  for (const name of names) {
    params[name] = problems[name]!.message;
    if (problems[name]!.detail) details[name] = problems[name]!.detail;
  }
  // WordPress sends an empty PHP array, `[]`, when no check returned a WP_Error (NOTES §8c of the tec-v1 kit).
  return new ApiError('rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, {
    params,
    details: Object.keys(details).length > 0 ? details : [],
  });
}

export const invalidParam = (name: string, message = 'Invalid parameter.'): ApiError =>
  invalidParams({ [name]: { message } });
