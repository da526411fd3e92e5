// The text the plugin puts into schema.org JSON-LD (Tribe__JSON_LD__Abstract): the excerpt as paragraphs, passed
// through WordPress's `esc_js`, which HTML-escapes it and backslash-escapes quotes and newlines.
import { autop } from './html.ts';
import type { PostRow } from './post.repository.ts';

const EXCERPT_WORDS = 55;

/**
 * `esc_js`: `&` (unless it starts an entity), `<`, `>` and `"` as HTML entities, `'` as `\'`, newlines as `\n`.
 * @example escJs('<p>Rock & "roll"</p>\n') // '&lt;p&gt;Rock &amp; &quot;roll&quot;&lt;/p&gt;\\n'
 */
export function escJs(text: string): string {
  return text
    .replace(/&(?!(?:[a-z][a-z0-9]*|#\d+|#x[0-9a-f]+);)/gi, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\\/g, '')
    .replace(/&#(x0*27|0*39);?/gi, "'")
    .replace(/'/g, "\\'")
    .replace(/\r/g, '')
    .replace(/\n/g, '\\n');
}

/** `wp_trim_words`: tags dropped, whitespace collapsed, at most 55 words and then ` [&hellip;]`. */
function trimWords(html: string): string {
  const text = html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '').replace(/<[^>]*>/g, '');
  const words = text.split(/[\n\r\t ]+/).filter(Boolean);
  return words.length > EXCERPT_WORDS ? `${words.slice(0, EXCERPT_WORDS).join(' ')} [&hellip;]` : words.join(' ');
}

/**
 * The JSON-LD `description` of an event, venue or organizer: its excerpt, or the first 55 words of its content when it
 * has none, as `wpautop` paragraphs (with their trailing newline), `esc_js`-escaped; `""` when both are empty.
 */
export function jsonLdDescription(row: Pick<PostRow, 'excerpt' | 'content'>): string {
  const excerpt = trimWords(row.excerpt.trim() !== '' ? row.excerpt : row.content);
  return excerpt === '' ? '' : escJs(`${autop(excerpt)}\n`);
}
