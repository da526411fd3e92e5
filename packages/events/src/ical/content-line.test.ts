import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { escapeText, foldLine, joinLines } from './content-line.ts';

/** RFC 5545 §3.1 unfolding and §3.3.11 unescaping: the naive reference the writer must agree with. */
const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '');
const unescape = (v: string) => v.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

describe('content lines', () => {
  it('folds any line into physical lines of at most 75 octets that unfold to the original', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), (value) => {
        const line = `DESCRIPTION:${escapeText(value)}`;
        const folded = foldLine(line);
        for (const physical of folded.split('\r\n')) expect(Buffer.byteLength(physical)).toBeLessThanOrEqual(75);
        expect(unfold(folded)).toBe(line);
        // No UTF-8 sequence is cut: every physical line is valid text on its own.
        for (const physical of folded.split('\r\n')) expect(Buffer.from(physical).toString()).toBe(physical);
      }),
    );
  });

  it('escapes text so that unescaping gives it back, with no raw line break left', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (value) => {
        const escaped = escapeText(value);
        expect(escaped).not.toMatch(/[\r\n]/);
        expect(unescape(escaped)).toBe(value.replace(/\r\n|\r/g, '\n'));
      }),
    );
  });

  it('ends every line with CRLF', () => {
    expect(joinLines(['BEGIN:VCALENDAR', 'END:VCALENDAR'])).toBe('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n');
    expect(
      foldLine(`SUMMARY:${'☕'.repeat(30)}`)
        .split('\r\n')
        .map((l) => Buffer.byteLength(l)),
    ).toEqual([74, 25]);
  });
});
