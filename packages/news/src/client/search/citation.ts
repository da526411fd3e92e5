import type { ArticleMetadata } from '../api/types.ts';

export interface CitationInput {
  readonly metadata: ArticleMetadata;
  /** The card's heading when the article has no title (its lead sentence or opening words). */
  readonly lead: string | null;
  readonly release: string;
}

function text(m: ArticleMetadata, key: string): string | null {
  const v = m[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

/** A title ends with its own ?, ! or … (any script's); only a title without one gets the full stop. */
function citedTitle(title: string): string {
  const t = title.replace(/[.\s]+$/u, '');
  return /[?!…？！。]$/u.test(t) ? `“${t}”` : `“${t}.”`;
}

/**
 * "Author, Outlet.": bylines often end with the outlet ("TED D'AFFLISIO, Reuters"; "Reuters"), so a byline that is
 * the outlet or already ends with it stands alone rather than naming the outlet twice.
 */
function creditPart(author: string | null, outlet: string): string {
  if (author === null) return `${outlet}.`;
  const a = author.toLocaleLowerCase().replace(/[\s.,;:()[\]]+$/u, '');
  const o = outlet.toLocaleLowerCase();
  const named = a === o || (a.endsWith(o) && /[\s,;(]$/u.test(a.slice(0, a.length - o.length)));
  return named ? `${author.replace(/[\s.]+$/u, '')}.` : `${author}, ${outlet}.`;
}

const day = (v: string | null) => (v === null ? null : (/^\d{4}-\d{2}-\d{2}/.exec(v)?.[0] ?? v));

/**
 * A citation a reader can paste into notes or a footnote: author and outlet, title (or, untitled, the lead in
 * brackets), publication and crawl dates, URL, and what locates the exact text again: release and text_xxhash64.
 * @example citationText({ metadata: { sitename: 'Kanal Kurier', title: 'Brücke eröffnet', publish_date: '2025-03-03', … }, lead: null, release: 'news-2026-11' })
 *   // 'Kanal Kurier. “Brücke eröffnet.” Published 2025-03-03; crawled 2025-03-04. https://…. News corpus release news-2026-11, text_xxhash64 123….'
 */
export function citationText(c: CitationInput): string {
  const m = c.metadata;
  const outlet = text(m, 'sitename') ?? text(m, 'hostname') ?? 'Unknown outlet';
  const author = text(m, 'author');
  const title = text(m, 'title');
  const published = day(text(m, 'publish_date'));
  const crawled = day(text(m, 'warc_date'));
  const dates = [
    published === null ? null : `Published ${published}`,
    crawled === null ? null : `crawled ${crawled}`,
  ].filter((d) => d !== null);
  const url = text(m, 'url');
  const hash = text(m, 'text_xxhash64');
  const parts = [
    creditPart(author, outlet),
    title !== null ? citedTitle(title) : c.lead !== null ? `[Untitled; begins “${c.lead}”]` : '[Untitled]',
    dates.length > 0 ? `${dates.join('; ').replace(/^./, (x) => x.toUpperCase())}.` : null,
    url === null ? null : `${url}.`,
    `News corpus release ${c.release}${hash === null ? '' : `, text_xxhash64 ${hash}`}.`,
  ];
  return parts.filter((p) => p !== null).join(' ');
}
