/**
 * Why an import from a site running the plugin is refused, a closed set the CLI prints (nothing is written for any):
 * `auth` (the source answered 401 or 403), `fetch` (unreachable, refused by the safe fetch, another status, too slow),
 * `too_large` (a page past the byte limit, or more pages than the limit), `not_json` (HTML or other text),
 * `malformed` (JSON without the fields of the plugin's answer), `bad_items` (items the REST write rules refuse).
 */
export type TecErrorKind = 'auth' | 'fetch' | 'too_large' | 'not_json' | 'malformed' | 'bad_items';

export class TecImportError extends Error {
  constructor(
    readonly kind: TecErrorKind,
    message: string,
  ) {
    super(message);
  }
}
