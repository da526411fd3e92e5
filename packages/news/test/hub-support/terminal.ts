/** What the tests of the generated Python scripts feed them and look for in their output. */

/** OSC 52 (write the clipboard), CSI sequences (clear screen, colour), their 8-bit forms, BEL, DEL, NUL, BS. */
export const TERMINAL_ESCAPES =
  '\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u001b[31mred\u009b5m\u009d52;c;SGk=\u009c\u007f\u0000\u0008';

/**
 * The C0 and C1 controls and DEL in `text`, as code points, except the line breaks the scripts write themselves
 * (\n, and \r for progress lines).
 */
export function controlCharacters(text: string): number[] {
  const found: number[] = [];
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if ((c < 0x20 && c !== 0x0a && c !== 0x0d) || (c >= 0x7f && c <= 0x9f)) found.push(c);
  }
  return found;
}
