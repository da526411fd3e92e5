import { pageUrl, type LinkArgs } from '../http/page-url.ts';

// `X-WP-Total`, `X-WP-TotalPages` and the `Link` header of a `tec/v1` list (NOTES §6): the current URL with the query
// as WordPress sanitised it (list arguments as `name[i]`, booleans as 1 or 0), `next` before `prev`.

export type { LinkArgs };

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
