import { phpTruthy } from './args.ts';

// `X-WP-Total`, `X-WP-TotalPages` and the `Link` header of a `tec/v1` list (NOTES §6): the current URL with the query
// in the order sent, as WordPress sanitised it (list arguments as `name[i]`, booleans as 1 or 0), `page` replaced where
// it was or added at the end, `next` before `prev`.

/** How a list's arguments are written back into its links. */
export interface LinkArgs {
  readonly arrays: readonly string[];
  readonly booleans: readonly string[];
}

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

function pageUrl(base: string, query: Readonly<Record<string, unknown>>, args: LinkArgs, page: number): string {
  const pairs = queryPairs(query, args);
  const at = pairs.findIndex(([k]) => k === 'page');
  if (at >= 0) pairs[at] = ['page', String(page)];
  else pairs.push(['page', String(page)]);
  return `${base}?${pairs.map(([k, v]) => `${urlencode(k)}=${urlencode(v)}`).join('&')}`;
}

export function pagingHeaders(
  base: string,
  query: Readonly<Record<string, unknown>>,
  args: LinkArgs,
  page: number,
  perPage: number,
  total: number,
): Record<string, string | number> {
  const totalPages = Math.ceil(total / perPage);
  const headers: Record<string, string | number> = { 'X-WP-Total': total, 'X-WP-TotalPages': totalPages };
  const links: string[] = [];
  if (page < totalPages) links.push(`<${pageUrl(base, query, args, page + 1)}>; rel="next"`);
  if (page > 1) links.push(`<${pageUrl(base, query, args, page - 1)}>; rel="prev"`);
  if (links.length > 0) headers.Link = links.join(', ');
  return headers;
}
