import type { Caller } from '../http/route.ts';
import { invalid, type Validator } from '../http/args.ts';
import { invalidParam } from '../http/errors.ts';
import { ANY_STATUSES, REGISTERED_STATUSES } from './status.ts';

/** Which posts a list may show: `statuses`, and when `ownerId` is set, non-published ones only of that author. */
export interface Visibility {
  readonly statuses: readonly string[];
  readonly ownerId?: number;
}

/** `status` on lists: a registered status, `any`, or a comma list of them. */
export const listStatusValidator: Validator = (v) => {
  const list = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [];
  const items = list.map((s) => String(s).trim()).filter(Boolean);
  return items.length > 0 && items.every((s) => s === 'any' || REGISTERED_STATUSES.has(s)) ? true : invalid();
};

export function parseStatusList(v: unknown): string[] {
  const list = Array.isArray(v) ? v : String(v).split(',');
  const items = list.map((s) => String(s).trim()).filter(Boolean);
  return [...new Set(items.flatMap((s) => (s === 'any' ? ANY_STATUSES : [s])))];
}

/**
 * §3.2 with the plugin's draft leak fixed: callers without the edit cap see `publish` only (and may only ask for it);
 * editors see every status they ask for; authors and contributors see others' posts only when published.
 */
export function listVisibility(caller: Caller | null, status: unknown): Visibility {
  const canEdit = caller?.can('edit') ?? false;
  if (!canEdit) {
    if (status !== undefined && parseStatusList(status).some((s) => s !== 'publish')) throw invalidParam('status');
    return { statuses: ['publish'] };
  }
  const statuses = status === undefined ? ANY_STATUSES : parseStatusList(status);
  return caller!.can('edit_others') ? { statuses } : { statuses, ownerId: caller!.id };
}

export function statusEcho(caller: Caller | null, status: unknown): string {
  if (status !== undefined) return parseStatusList(status).join(',');
  return caller?.can('edit') ? 'any' : 'publish';
}

export interface PageLinks {
  rest_url: string;
  next_rest_url?: string;
  previous_rest_url?: string;
}

type Args = ReadonlyArray<readonly [string, string]>;

/** What a list answer says about its own URL: the plugin's echo, and the filters its links lose. */
export interface LinkArgs {
  /** The arguments the plugin's `rest_url` echoes, in its order, `page` first. */
  readonly echoed: Args;
  /**
   * Filters the plugin drops from `rest_url` and its paging links (categories, tags, strict dates, venue search…),
   * so its next page is a page of another list. Ours keep them on next/previous (README, deliberate differences).
   */
  readonly kept?: Args;
  /** The plugin's events `rest_url` comes URL-encoded once venue, organizer or featured filters are in it. */
  readonly encodeRestUrl?: boolean;
}

/** PHP's `urlencode` (what http_build_query applies): spaces as `+`, every reserved character escaped. */
const phpUrlencode = (v: string): string =>
  encodeURIComponent(v)
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');

/**
 * The plugin's three URLs: `rest_url` is add_query_arg over the echoed arguments (values as they are), the paging
 * links rebuild the query with http_build_query and put `page` last (none for page 1). Next/previous exist only
 * around pages that have items.
 */
export function pageLinks(base: string, args: LinkArgs, page: number, totalPages: number): PageLinks {
  const restQuery = args.echoed.map(([k, v]) => `${k}=${args.encodeRestUrl ? phpUrlencode(v) : v}`).join('&');
  const carried = [...args.echoed.filter(([k]) => k !== 'page'), ...(args.kept ?? [])];
  const link = (p: number) => {
    const parts = carried.map(([k, v]) => `${k}=${phpUrlencode(v)}`);
    if (p > 1) parts.push(`page=${p}`);
    return parts.length > 0 ? `${base}?${parts.join('&')}` : base;
  };
  const links: PageLinks = { rest_url: restQuery === '' ? base : `${base}?${restQuery}` };
  if (page < totalPages) links.next_rest_url = link(page + 1);
  if (page > 1 && page - 1 <= totalPages && totalPages > 0) links.previous_rest_url = link(page - 1);
  return links;
}

export const MAX_PER_PAGE = 50;
export const DEFAULT_PER_PAGE = 10;
export const clampPerPage = (n: number | undefined): number => Math.min(MAX_PER_PAGE, n ?? DEFAULT_PER_PAGE);
