import sanitizeHtml from 'sanitize-html';
import {
  ALLOWED_POST_TAGS,
  ALLOWED_PROTOCOLS,
  ALLOWED_TAGS,
  SAFE_CSS_PROPERTIES,
  URI_ATTRIBUTES,
} from './kses.tags.ts';

// WordPress's kses for users without `unfiltered_html`, done by sanitize-html (a parser, not patterns): the parser
// decodes entities before the protocol check, so `jav&#x61;script:` and `javascript&colon;` are caught like the plain
// spelling. One difference from kses: the text inside <script>, <style> and the like is dropped with the tag (kses
// keeps it as harmless text), so no code shows up as prose.

// A CSS value may not load anything or smuggle syntax: no url(), expression(), escapes, comments or markup.
const SAFE_CSS_VALUE = /^(?!.*(?:url\s*\(|expression|image-set|@import|javascript:|\\|\/\*|[<>{}]))[^;]*$/i;

function optionsFor(tags: Readonly<Record<string, readonly string[]>>): sanitizeHtml.IOptions {
  const withStyle = Object.values(tags).some((attrs) => attrs.includes('style'));
  return {
    allowedTags: Object.keys(tags),
    allowedAttributes: Object.fromEntries(Object.entries(tags).map(([tag, attrs]) => [tag, [...attrs]])),
    allowedSchemes: ALLOWED_PROTOCOLS,
    allowedSchemesByTag: {},
    allowedSchemesAppliedToAttributes: URI_ATTRIBUTES,
    allowProtocolRelative: true,
    allowedStyles: withStyle
      ? { '*': Object.fromEntries(SAFE_CSS_PROPERTIES.map((p) => [p, [SAFE_CSS_VALUE]])) }
      : undefined,
    disallowedTagsMode: 'discard',
    // Raw-text elements lose their content with the tag; <textarea> (allowed in posts) keeps it as escaped text.
    nonTextTags: ['script', 'style', 'noscript', 'noembed', 'noframes', 'xmp', 'iframe', 'template', 'title', 'option'],
    enforceHtmlBoundary: false,
  };
}

const POST_OPTIONS = optionsFor(ALLOWED_POST_TAGS);
const DATA_OPTIONS = optionsFor(ALLOWED_TAGS);

/**
 * `wp_filter_post_kses`: post content and excerpts (events, venue and organizer descriptions).
 * @example ksesPost('<p onclick="x()">Hi <a href="javascript:x()">there</a></p>') // '<p>Hi <a>there</a></p>'
 */
export const ksesPost = (html: string): string => sanitizeHtml(html, POST_OPTIONS);

/**
 * `wp_filter_kses` (the small `$allowedtags` set): titles, term names and descriptions, venue and organizer fields.
 * @example ksesData('<b>Gala</b><img src=x onerror=alert(1)>') // '<b>Gala</b>'
 */
export const ksesData = (html: string): string => sanitizeHtml(html, DATA_OPTIONS);

/** Who is writing: only the `unfiltered_html` capability matters here. */
export interface HtmlAuthor {
  can(capability: string): boolean;
}

/**
 * A website field keeps only an allowed protocol, as `esc_url_raw` would (`javascript://x%0aalert(1)` passes a
 * `scheme://host` check); anything else is stored empty. Control characters and spaces that browsers skip are
 * ignored while reading the scheme.
 */
export function ksesUrl(url: string): string {
  // eslint-disable-next-line no-control-regex
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/[\u0000-\u0020]/g, ''));
  return !scheme || ALLOWED_PROTOCOLS.includes(scheme[1]!.toLowerCase()) ? url : '';
}

/** The filters a write applies, or identity for users with `unfiltered_html` (administrators and editors). */
export interface WriteFilters {
  readonly post: (html: string) => string;
  readonly data: (html: string) => string;
  readonly url: (url: string) => string;
}

const same = (s: string): string => s;
const UNFILTERED: WriteFilters = { post: same, data: same, url: same };
const FILTERED: WriteFilters = { post: ksesPost, data: ksesData, url: ksesUrl };

/** @example writeFilters(caller).data(params.title) */
export const writeFilters = (author: HtmlAuthor): WriteFilters =>
  author.can('unfiltered_html') ? UNFILTERED : FILTERED;
