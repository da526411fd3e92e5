import type { Caller } from '../http/route.ts';
import { invalid, type Validator } from '../http/args.ts';
import { invalidParam } from '../http/errors.ts';
import { ANY_STATUSES, REGISTERED_STATUSES } from './status.ts';

/** Which posts a list may show: `statuses`, and when `ownerId` is set, non-published ones only of that author. */
export interface Visibility { readonly statuses: readonly string[]; readonly ownerId?: number }

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

export interface PageLinks { rest_url: string; next_rest_url?: string; previous_rest_url?: string }

/**
 * `rest_url` echoes the effective arguments; next/previous exist only when that page has items.
 * Every filter is carried (the plugin drops categories and tags, a documented difference).
 */
export function pageLinks(base: string, args: ReadonlyArray<readonly [string, string]>, page: number, totalPages: number): PageLinks {
  const qs = (p: number | undefined) => {
    const parts = args.filter(([k]) => k !== 'page').map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
    if (p !== undefined) parts.unshift(`page=${p}`);
    return parts.length > 0 ? `${base}?${parts.join('&')}` : base;
  };
  const links: PageLinks = { rest_url: qs(page) };
  if (page < totalPages) links.next_rest_url = qs(page + 1);
  if (page > 1 && page - 1 <= totalPages && totalPages > 0) links.previous_rest_url = qs(page === 2 ? undefined : page - 1);
  return links;
}

export const MAX_PER_PAGE = 50;
export const DEFAULT_PER_PAGE = 10;
export const clampPerPage = (n: number | undefined): number => Math.min(MAX_PER_PAGE, n ?? DEFAULT_PER_PAGE);
