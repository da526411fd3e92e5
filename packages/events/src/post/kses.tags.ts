// WordPress's kses allow-lists (wp-includes/kses.php, WordPress 6.x), as data for sanitize-html.

/** `$allowedtags`: what `wp_filter_kses` keeps in titles, term names and descriptions, venue and organizer fields. */
export const ALLOWED_TAGS: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title'], abbr: ['title'], acronym: ['title'], b: [], blockquote: ['cite'], cite: [], code: [],
  del: ['datetime'], em: [], i: [], q: ['cite'], s: [], strike: [], strong: [],
};

const ALIGN = ['align'];
const CELL = ['align', 'char', 'charoff', 'valign'];
const TABLE_CELL = ['abbr', 'align', 'axis', 'bgcolor', 'char', 'charoff', 'colspan', 'headers', 'height', 'nowrap',
  'rowspan', 'scope', 'valign', 'width'];

/** `$allowedposttags`: what `wp_filter_post_kses` keeps in post content and excerpts (before global attributes). */
const POST_TAGS: Record<string, readonly string[]> = {
  address: [], a: ['href', 'rel', 'rev', 'name', 'target', 'download'], abbr: [], acronym: [],
  area: ['alt', 'coords', 'href', 'nohref', 'shape', 'target'], article: ALIGN, aside: ALIGN,
  audio: ['autoplay', 'controls', 'loop', 'muted', 'preload', 'src'], b: [], bdo: [], big: [], blockquote: ['cite'],
  br: [], button: ['disabled', 'name', 'type', 'value'], caption: ALIGN, cite: [], code: [],
  col: [...CELL, 'span', 'width'], colgroup: [...CELL, 'span', 'width'], del: ['datetime'], dd: [], dfn: [],
  details: ['align', 'open'], div: ALIGN, dl: [], dt: [], em: [], fieldset: [], figure: ALIGN, figcaption: ALIGN,
  font: ['color', 'face', 'size'], footer: ALIGN, h1: ALIGN, h2: ALIGN, h3: ALIGN, h4: ALIGN, h5: ALIGN, h6: ALIGN,
  header: ALIGN, hgroup: ALIGN, hr: ['align', 'noshade', 'size', 'width'], i: [],
  img: ['alt', 'align', 'border', 'height', 'hspace', 'loading', 'longdesc', 'vspace', 'src', 'usemap', 'width',
    'decoding', 'srcset', 'sizes'],
  ins: ['datetime', 'cite'], kbd: [], label: ['for'], legend: ALIGN, li: ['align', 'value'], main: ALIGN, map: ['name'],
  mark: [], menu: ['type'], nav: ALIGN, p: ALIGN, pre: ['width'], q: ['cite'], rb: [], rp: [], rt: [], rtc: [],
  ruby: [], s: [], samp: [], span: ALIGN, section: ALIGN, small: [], strike: [], strong: [], sub: [],
  summary: ALIGN, sup: [],
  table: ['align', 'bgcolor', 'border', 'cellpadding', 'cellspacing', 'rules', 'summary', 'width'],
  tbody: CELL, td: TABLE_CELL, textarea: ['cols', 'rows', 'disabled', 'name', 'readonly'], tfoot: CELL,
  th: TABLE_CELL, thead: CELL, title: [], tr: [...CELL, 'bgcolor'],
  track: ['default', 'kind', 'label', 'src', 'srclang'], tt: [], u: [], ul: ['type'], ol: ['start', 'type', 'reversed'],
  var: [], video: ['autoplay', 'controls', 'height', 'loop', 'muted', 'playsinline', 'poster', 'preload', 'src', 'width'],
};

/** `_wp_add_global_attributes`: every post tag also takes these (`data-*` included). */
const GLOBAL_ATTRIBUTES = ['aria-controls', 'aria-current', 'aria-describedby', 'aria-details', 'aria-expanded',
  'aria-hidden', 'aria-label', 'aria-labelledby', 'aria-live', 'class', 'data-*', 'dir', 'hidden', 'id', 'lang',
  'style', 'title', 'role', 'xml:lang'];

export const ALLOWED_POST_TAGS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(POST_TAGS).map(([tag, attrs]) => [tag, [...attrs, ...GLOBAL_ATTRIBUTES]]));

/** `wp_allowed_protocols()`: the only URL schemes kept in href, src and the other URI attributes. */
export const ALLOWED_PROTOCOLS = ['http', 'https', 'ftp', 'ftps', 'mailto', 'news', 'irc', 'irc6', 'ircs', 'gopher',
  'nntp', 'feed', 'telnet', 'mms', 'rtsp', 'sms', 'svn', 'tel', 'fax', 'xmpp', 'webcal', 'urn'];

/** `wp_kses_uri_attributes()`: the attributes whose values are URLs and get the protocol check. */
export const URI_ATTRIBUTES = ['action', 'archive', 'background', 'cite', 'classid', 'codebase', 'data', 'formaction',
  'href', 'icon', 'longdesc', 'manifest', 'poster', 'profile', 'src', 'usemap', 'xmlns', 'srcset', 'xlink:href', 'ping'];

/** The CSS properties `safecss_filter_attr` keeps in `style` (those that take no URL). */
export const SAFE_CSS_PROPERTIES = ['background-color', 'background-position', 'background-size', 'background-repeat',
  'border', 'border-radius', 'border-width', 'border-color', 'border-style', 'border-right', 'border-right-color',
  'border-right-style', 'border-right-width', 'border-bottom', 'border-bottom-color', 'border-bottom-style',
  'border-bottom-width', 'border-left', 'border-left-color', 'border-left-style', 'border-left-width', 'border-top',
  'border-top-color', 'border-top-style', 'border-top-width', 'border-spacing', 'border-collapse', 'caption-side',
  'columns', 'column-count', 'column-fill', 'column-gap', 'column-rule', 'column-span', 'column-width', 'color',
  'font', 'font-family', 'font-size', 'font-style', 'font-variant', 'font-weight', 'letter-spacing', 'line-height',
  'text-align', 'text-decoration', 'text-indent', 'text-transform', 'height', 'min-height', 'max-height', 'width',
  'min-width', 'max-width', 'margin', 'margin-right', 'margin-bottom', 'margin-left', 'margin-top', 'padding',
  'padding-right', 'padding-bottom', 'padding-left', 'padding-top', 'flex', 'flex-basis', 'flex-direction',
  'flex-flow', 'flex-grow', 'flex-shrink', 'flex-wrap', 'gap', 'row-gap', 'align-items',
  'justify-content', 'clear', 'cursor', 'direction', 'float', 'list-style-type', 'object-fit', 'object-position',
  'overflow', 'vertical-align', 'writing-mode', 'aspect-ratio'];
