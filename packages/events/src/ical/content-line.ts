// RFC 5545 §3.1 content lines: TEXT escaping, folding at 75 octets (never inside a UTF-8 sequence), CRLF endings.

const MAX_OCTETS = 75;

/** TEXT value escaping (§3.3.11): backslash, semicolon, comma and newlines. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** A parameter value (§3.2): quoted when it holds `:`, `;` or `,`; double quotes cannot be escaped, so they go. */
export function paramValue(value: string): string {
  const clean = value.replace(/"/g, '').replace(/[\r\n]+/g, ' ');
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
}

/**
 * Folds one content line: each physical line at most 75 octets, continuation lines start with a space (§3.1).
 * @example foldLine('SUMMARY:' + 'x'.repeat(80)) // 'SUMMARY:xxx…\r\n xxxxx'
 */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line) <= MAX_OCTETS) return line;
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  let limit = MAX_OCTETS;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
      limit = MAX_OCTETS - 1; // the leading space of a continuation counts
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** Joins content lines into iCalendar text: folded, each ended by CRLF. */
export function joinLines(lines: readonly string[]): string {
  let out = '';
  for (const line of lines) out += `${foldLine(line)}\r\n`;
  return out;
}

const p2 = (n: number) => String(n).padStart(2, '0');

/** An instant as a UTC DATE-TIME (`20320501T090000Z`). */
export function utcDateTime(ms: number): string {
  const d = new Date(ms);
  return `${String(d.getUTCFullYear()).padStart(4, '0')}${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())}T${p2(d.getUTCHours())}${p2(d.getUTCMinutes())}${p2(d.getUTCSeconds())}Z`;
}

/** A stored wall time (`2032-05-01 09:00:00`) as a local DATE-TIME (`20320501T090000`). */
export function localDateTime(wall: string): string {
  return `${wall.slice(0, 4)}${wall.slice(5, 7)}${wall.slice(8, 10)}T${wall.slice(11, 13)}${wall.slice(14, 16)}${wall.slice(17, 19)}`;
}

/** The calendar day of a stored wall time as a DATE (`20320501`). */
export function dateOnly(wall: string): string {
  return `${wall.slice(0, 4)}${wall.slice(5, 7)}${wall.slice(8, 10)}`;
}
