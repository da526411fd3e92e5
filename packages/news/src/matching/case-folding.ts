import { caseFold, lookupFolding } from 'unicode-case-folding';

/**
 * Full Unicode case folding (CaseFolding.txt statuses C + F, as the metadata filters use) and its inverse: for a
 * folded string of one to three code points, every character that folds to exactly it. The inverse is what a
 * case-insensitive search walks: "strasse" can be spelled with `ß` or `ẞ` for "ss", `S` or `ſ` for "s", and so on.
 */

let inverse: Map<string, readonly string[]> | undefined;

/** Built once, on first use (about 0.1 s: every code point's folding is looked up once). */
function inverseTable(): Map<string, readonly string[]> {
  if (inverse !== undefined) return inverse;
  const table = new Map<string, string[]>();
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp === 0xd800) cp = 0xe000; // lone surrogates are not characters
    const folded = lookupFolding(cp);
    if (folded === undefined) continue;
    const key = String.fromCodePoint(...folded);
    const list = table.get(key);
    if (list === undefined) table.set(key, [String.fromCodePoint(cp)]);
    else list.push(String.fromCodePoint(cp));
  }
  inverse = table;
  return table;
}

/** The query's full case folding, as code points. */
export function foldedCodePoints(query: string): number[] {
  return [...caseFold(query)].map((c) => c.codePointAt(0) as number);
}

/** Longest folded string any single character folds to (`ΐ` → three code points). */
export const MAX_FOLD_LENGTH = 3;

/**
 * Every character whose full case folding is exactly `folded`: the folded string itself when it is one character
 * that folds to itself, plus the characters that fold to it (`s` → `s`, `S`, `ſ`; `ss` → `ß`, `ẞ`).
 */
export function charactersFoldingTo(folded: string): readonly string[] {
  const others = inverseTable().get(folded) ?? [];
  const single = [...folded].length === 1 && lookupFolding(folded.codePointAt(0) as number) === undefined;
  return single ? [folded, ...others] : others;
}
