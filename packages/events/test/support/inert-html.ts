// An independent check that stored or returned HTML can run nothing in a browser: it does not reuse the sanitizer's
// allow-lists, it looks for what executes (script-capable elements, event handlers, script URLs, CSS that loads).

const ACTIVE_ELEMENTS = new Set([
  'script',
  'svg',
  'math',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'meta',
  'base',
  'link',
  'style',
  'form',
  'input',
  'select',
  'keygen',
  'isindex',
  'body',
  'html',
  'head',
  'xml',
  'layer',
  'bgsound',
  'marquee',
  'template',
  'noscript',
  'source',
  'animate',
  'set',
  'foreignobject',
  'xss',
  'portal',
]);

const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'poster',
  'background',
  'cite',
  'data',
  'srcset',
  'xlink:href',
  'longdesc',
  'usemap',
  'dynsrc',
  'lowsrc',
  'to',
  'code',
  'codebase',
  'classid',
  'archive',
  'ping',
]);

const SAFE_SCHEMES = new Set([
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'news',
  'irc',
  'irc6',
  'ircs',
  'gopher',
  'nntp',
  'feed',
  'telnet',
  'mms',
  'rtsp',
  'sms',
  'svn',
  'tel',
  'fax',
  'xmpp',
  'webcal',
  'urn',
]);

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  colon: ':',
  tab: '\t',
  newline: '\n',
};

/** Decodes the entities a browser decodes in attribute values (numeric ones without `;` too). */
export function decodeEntities(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);?/gi, (_m, h: string) => String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)))
    .replace(/&#(\d+);?/g, (_m, d: string) => String.fromCodePoint(Math.min(Number(d), 0x10ffff)))
    .replace(/&([a-z]+);/gi, (m, n: string) => NAMED[n.toLowerCase()] ?? m);
}

function unsafeUrl(value: string): boolean {
  // Browsers skip control characters and spaces anywhere in a scheme.
  // eslint-disable-next-line no-control-regex
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(decodeEntities(value).replace(/[\u0000-\u0020]/g, ''));
  return scheme !== null && !SAFE_SCHEMES.has(scheme[1]!.toLowerCase());
}

/** What in `html` could execute, one line per finding; empty when the HTML is inert. */
export function activeContent(html: string): string[] {
  const found: string[] = [];
  for (const tag of html.matchAll(/<\s*([a-z][^\s/>]*)([^>]*)>?/gi)) {
    const name = tag[1]!.toLowerCase();
    if (ACTIVE_ELEMENTS.has(name)) found.push(`<${name}> element`);
    for (const attr of tag[2]!.matchAll(/([^\s"'>/=]+)\s*(?:=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g)) {
      const key = attr[1]!.toLowerCase();
      const value = (attr[2] ?? '').replace(/^["']|["']$/g, '');
      if (key.startsWith('on')) found.push(`${key} handler on <${name}>`);
      if (key === 'style' && /url\s*\(|expression|behavior|binding|\\/i.test(decodeEntities(value)))
        found.push(`style loads on <${name}>`);
      if (
        key === 'srcset'
          ? value.split(',').some((c) => unsafeUrl(c.trim()))
          : URL_ATTRIBUTES.has(key) && unsafeUrl(value)
      ) {
        found.push(`${key}="${value}" on <${name}>`);
      }
    }
  }
  return found;
}

/** Every finding in every string of a JSON value or row, with its path; `website` fields are read as URLs. */
export function activeContentIn(value: unknown, path = '$'): string[] {
  if (typeof value === 'string') {
    const urlField = /\.(website|sameAs)$/.test(path) && unsafeUrl(value) ? [`${path}: unsafe URL ${value}`] : [];
    return [...urlField, ...activeContent(value).map((f) => `${path}: ${f}`)];
  }
  if (Array.isArray(value)) return value.flatMap((v, i) => activeContentIn(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => activeContentIn(v, `${path}.${k}`));
  return [];
}
