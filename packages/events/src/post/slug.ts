/**
 * WordPress `sanitize_title_with_dashes`: lower case, accents removed, anything but letters, digits and dashes
 * turned into single dashes.
 * @example sanitizeTitle('Café & Bar — 2018!') // 'cafe-bar-2018'
 */
export function sanitizeTitle(title: string): string {
  return title
    .normalize('NFKD').replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/&[a-z0-9#]+;/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 190);
}

/** The next free WordPress-style slug given the taken ones: `base`, `base-2`, `base-3`… */
export function nextFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
