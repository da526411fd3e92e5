import { phpTruthy } from './args.ts';

// The URL of another page of a list, as WordPress's `add_query_arg` builds the `Link` headers of core's and the
// plugin's `tec/v1` lists: the current query in the order sent, `page` replaced where it was or added at the end.

/** How a list's arguments are written back into its links (the plugin's sanitised values; core's lists: none). */
export interface LinkArgs {
  /** Written as `name[i]`, a comma-separated value split. */
  readonly arrays: readonly string[];
  /** Written as 1 or 0. */
  readonly booleans: readonly string[];
}

/** Core's lists echo the query as sent. */
export const RAW_LINK_ARGS: LinkArgs = { arrays: [], booleans: [] };

/** PHP's urlencode (spaces as `+`), as add_query_arg builds the links. */
const urlencode = (s: string): string =>
  encodeURIComponent(s)
    .replace(/%20/g, '+')
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

function queryPairs(query: Readonly<Record<string, unknown>>, args: LinkArgs): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of Object.entries(query)) {
    if (args.booleans.includes(k)) out.push([k, phpTruthy(v) ? '1' : '0']);
    else if (args.arrays.includes(k) && typeof v === 'string')
      v.split(',').forEach((x, i) => out.push([`${k}[${i}]`, x.trim()]));
    else if (Array.isArray(v)) v.forEach((x, i) => out.push([`${k}[${i}]`, String(x)]));
    else if (v !== null && typeof v === 'object')
      for (const [ik, iv] of Object.entries(v)) out.push([`${k}[${ik}]`, String(iv)]);
    else out.push([k, String(v)]);
  }
  return out;
}

/**
 * `add_query_arg( 'page', page, base-with-query )`.
 * @example pageUrl('http://s.test/wp-json/wp/v2/users', { per_page: '2', page: '1' }, RAW_LINK_ARGS, 2) // '…/users?per_page=2&page=2'
 */
export function pageUrl(base: string, query: Readonly<Record<string, unknown>>, args: LinkArgs, page: number): string {
  const pairs = queryPairs(query, args);
  const at = pairs.findIndex(([k]) => k === 'page');
  if (at >= 0) pairs[at] = ['page', String(page)];
  else pairs.push(['page', String(page)]);
  return `${base}?${pairs.map(([k, v]) => `${urlencode(k)}=${urlencode(v)}`).join('&')}`;
}
