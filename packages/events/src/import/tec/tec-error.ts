import type { TecItem } from './tec-items.ts';

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

/** What an import counts, in the order it writes them (the summary's lines). */
export const TEC_KINDS = ['categories', 'tags', 'venues', 'organizers', 'events'] as const;
export type TecKind = (typeof TEC_KINDS)[number];
export interface KindCounts {
  created: number;
  updated: number;
  unchanged: number;
}

/** An item as errors and the summary name it: `events 12 (night-show)`. */
export const describe = (kind: TecKind, item: TecItem) => `${kind} ${item.id} (${item.slug})`;

/** An item the REST write rules refuse, with their reason (`reasonOf` an ApiError), refuses the import. */
export const refusal = (kind: TecKind, item: TecItem, reason: string) =>
  new TecImportError('bad_items', `${describe(kind, item)} refused, nothing imported: ${reason}`);
