/**
 * The result views' own URL keys (the tab, a view's sort and page), replaced in place as they change: they are views
 * of one search, so they take no history entry, and a shared link opens the same view.
 */

/** The keys every result view may write; a new search from the form drops those that belong to one result (`PAGE_KEYS`). */
export const VIEW_KEYS = [
  'tab',
  'kwic_sort',
  'kwic_page',
  'kwic_all',
  'coll_sort',
  'coll_window',
  'next_dir',
  'next_words',
  'kw_a',
  'kw_b',
  'kw_a_src',
  'kw_b_src',
  'kw_a_q',
  'fl',
  'fl_src',
  'fl_q',
  'fl_sort',
  'fl_filter',
  'dedupe',
] as const;
export type ViewKey = (typeof VIEW_KEYS)[number];
/** Keys that point into one search's answer (a concordance page): a new phrase starts again from the first. */
export const PAGE_KEYS: readonly ViewKey[] = ['kwic_page'];

/** A view key's value in the current URL, or null. */
export function readViewKey(key: ViewKey, search: string = location.search): string | null {
  return new URLSearchParams(search).get(key);
}

/**
 * `search` with `values` set (null or the default removes the key).
 * @example withViewKeys('?q=oil', { tab: 'collocations' }) // 'q=oil&tab=collocations'
 */
export function withViewKeys(search: string, values: Partial<Record<ViewKey, string | null>>): string {
  const p = new URLSearchParams(search);
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === undefined) p.delete(key);
    else p.set(key, value);
  }
  return p.toString();
}

/** Writes `values` into the address bar in place (no history entry). */
export function saveViewKeys(values: Partial<Record<ViewKey, string | null>>): void {
  const qs = withViewKeys(location.search, values);
  history.replaceState(history.state, '', `${location.pathname}${qs === '' ? '' : `?${qs}`}${location.hash}`);
}

/** The view keys of `search` to carry over to a new search (everything but `PAGE_KEYS`). */
export function carriedViewKeys(search: string): Partial<Record<ViewKey, string>> {
  const p = new URLSearchParams(search);
  const out: Partial<Record<ViewKey, string>> = {};
  for (const key of VIEW_KEYS) {
    const v = p.get(key);
    if (v !== null && !PAGE_KEYS.includes(key)) out[key] = v;
  }
  return out;
}
