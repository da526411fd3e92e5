// remove_accents for letters that do not decompose into a base letter and a mark.
const LIGATURES: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ø: 'o',
  Ø: 'O',
  đ: 'd',
  Đ: 'D',
  ł: 'l',
  Ł: 'L',
  þ: 'th',
  Þ: 'TH',
  ð: 'd',
  Ð: 'D',
};
// What the `save` context turns into dashes or drops, as percent-encoded UTF-8 (dashes, spaces, quotes, symbols).
const TO_DASH = /%c2%a0|%e2%80%9[134]|%e2%80%8[0-9a]|%e2%80%a[89]|%e2%80%af/g;
const DROPPED =
  /%c2%a[d19bef]|%c2%b[f4b0]|%c2%ab|%e2%80%b[9a]|%e2%80%9[89abcdef]|%e2%80%a[26]|%e2%84%a2|%cb%8a|%cc%8[014c]|%cd%81|%e2%80%8[b-f]|%e2%80%a[a-e]|%ef%bb%bf|%ef%bf%bc/g;
const SLUG_BYTES = 200;

/** `utf8_uri_encode`: non-ASCII characters as lower-case percent-encoded UTF-8, at most 200 bytes, never split. */
function uriEncode(text: string): string {
  let out = '';
  for (const ch of text) {
    const piece =
      ch.charCodeAt(0) < 0x80
        ? ch
        : [...new TextEncoder().encode(ch)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    if (out.length + piece.length > SLUG_BYTES) break;
    out += piece;
  }
  return out;
}

/**
 * WordPress `sanitize_title` in the `save` context (`remove_accents`, then `sanitize_title_with_dashes`): lower
 * case, accents removed, other non-ASCII characters percent-encoded, dashes and spaces as single dashes.
 * @example sanitizeTitle('Café & Bar — 2018!') // 'cafe-bar-2018'
 * @example sanitizeTitle('Crème Brûlée Workshop ☕') // 'creme-brulee-workshop-%e2%98%95'
 */
export function sanitizeTitle(title: string): string {
  const plain = title
    .replace(/<[^>]*>/g, '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^ -~\s]/g, (c) => LIGATURES[c] ?? c);
  return withDashes(plain, true);
}

/**
 * `sanitize_title_for_query`, as WordPress reads a slug from a URL: no accents removed, non-ASCII percent-encoded.
 * @example querySlug('creme-brulee-workshop-☕') // 'creme-brulee-workshop-%e2%98%95'
 */
export const querySlug = (slug: string): string => withDashes(slug.replace(/<[^>]*>/g, ''), false);

/** `sanitize_title_with_dashes`; `save` adds the save context's dash, quote and symbol rules. */
function withDashes(title: string, save: boolean): string {
  let t = uriEncode(
    title
      .replace(/%([a-fA-F0-9]{2})/g, '---$1---')
      .replace(/%/g, '')
      .replace(/---([a-fA-F0-9]{2})---/g, '%$1')
      .toLowerCase(),
  ).toLowerCase();
  if (save) {
    t = t
      .replace(TO_DASH, '-')
      .replace(/&nbsp;|&#8209;|&#160;|&ndash;|&#8211;|&mdash;|&#8212;/g, '-')
      .replace(/\//g, '-')
      .replace(DROPPED, '')
      .replace(/%c3%97/g, 'x');
  }
  return t
    .replace(/&.+?;/g, '')
    .replace(/\./g, '-')
    .replace(/[^%a-z0-9 _-]/g, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The next free WordPress-style slug given the taken ones: `base`, `base-2`, `base-3`… */
export function nextFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Whether `slug` is what a post titled `title` was named (its title's slug, or that with a `-N` suffix), rather than
 * a slug sent on its own. `fallback` is the name of an untitled post.
 */
export function isTitleSlug(slug: string, title: string, fallback = 'event'): boolean {
  const base = sanitizeTitle(title) || fallback;
  return slug === base || (slug.startsWith(`${base}-`) && /^[1-9][0-9]*$/.test(slug.slice(base.length + 1)));
}

const TRASHED = '__trashed';
/** The slug WordPress gives a trashed post, freeing its own for others (`wp_add_trashed_suffix_to_post_name_for_post`). */
export const trashedSlug = (slug: string): string => (slug.endsWith(TRASHED) ? slug : `${slug}${TRASHED}`);
/** The slug a post restored from the trash asks for again (`_wp_desired_post_slug`). */
export const untrashedSlug = (slug: string): string => (slug.endsWith(TRASHED) ? slug.slice(0, -TRASHED.length) : slug);
