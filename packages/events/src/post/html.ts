// Just enough of WordPress's content filters for the plugin's observable output: paragraphs (wpautop) and typographic
// quotes and dashes (wptexturize). What users without `unfiltered_html` may store is kses's job (kses.ts), on write.

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESC[c]!);

// An ampersand that does not start an entity; wptexturize writes it `&#038;`.
const BARE_AMP = /&(?!#(?:\d+|x[a-f0-9]+);|[a-z1-4]{1,8};)/gi;

/** wptexturize for plain text runs: quotes, apostrophes, dashes and ellipses. HTML tags pass through untouched. */
export function texturize(text: string): string {
  // Most text has nothing to replace; skip the regex passes then (this runs for every name in every list item).
  if (!/["']|--| - |\.\.\./.test(text)) return text.includes('&') ? text.replace(BARE_AMP, '&#038;') : text;
  return text
    .split(/(<[^>]*>)/)
    .map((part, i) => {
      if (i % 2 === 1) return part;
      return (
        part
          // A bare ampersand becomes `&#038;`; entities already written stay.
          .replace(BARE_AMP, '&#038;')
          .replace(/\.\.\./g, '&#8230;')
          .replace(/ -- /g, ' &#8212; ')
          .replace(/---/g, '&#8212;')
          .replace(/--/g, '&#8211;')
          .replace(/ - /g, ' &#8211; ')
          .replace(/(^|[\s([{])"/g, '$1&#8220;')
          .replace(/"/g, '&#8221;')
          .replace(/(^|[\s([{])'/g, '$1&#8216;')
          .replace(/'/g, '&#8217;')
      );
    })
    .join('');
}

/** wpautop: blank lines separate paragraphs, single newlines become `<br />`. */
export function autop(text: string): string {
  const trimmed = text.replace(/\r\n?/g, '\n').trim();
  if (trimmed === '') return '';
  if (!trimmed.includes('\n') && !trimmed.startsWith('<')) return `<p>${trimmed}</p>`;
  return trimmed
    .split(/\n\s*\n/)
    .map((p) => {
      const body = p.trim();
      if (/^<(p|div|ul|ol|table|h[1-6]|blockquote|pre)[\s>]/i.test(body)) return body;
      return `<p>${body.replace(/\n/g, '<br />\n')}</p>`;
    })
    .join('\n');
}

export const renderTitle = (title: string): string => texturize(title).trim();
export const renderContent = (content: string): string => autop(texturize(content)).trim();
