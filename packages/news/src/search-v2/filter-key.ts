import { caseFold } from 'unicode-case-folding';

/**
 * The comparison key of a filter value or metadata label: Unicode compatibility caseless matching
 * (Unicode §3.13, D146: NFKD(toCasefold(NFKD(toCasefold(NFD(x)))))), ending in NFKC instead of NFKD
 * because both give the same equivalence and NFKC keys are shorter.
 *
 * `toCasefold` is full case folding (CaseFolding.txt statuses C + F, not the Turkic T): `ß` → `ss`,
 * `İ` → `i̇`. JavaScript has none built in, and `toLowerCase` is not folding (`ς` stays `ς`, `ß` stays
 * `ß`), so the mapping comes from `unicode-case-folding` (data identical to Unicode 17.0, the version of
 * Node 20.20's ICU, so folding and `String.prototype.normalize` agree). Folding runs twice because NFKD
 * can produce characters that fold further (e.g. `ͅ` after decomposing `ᾳ`), and
 * normalisation runs after folding because folding can break normalisation (`ǰ` folds to `j` + caron).
 *
 * @example filterKey('ＤＥ') === filterKey('de'); filterKey('STRASSE') === filterKey('straße')
 */
export function filterKey(value: string): string {
  return caseFold(caseFold(value.normalize('NFD')).normalize('NFKD')).normalize('NFKC');
}

/**
 * `filterKey` with a bounded memo: metadata labels repeat across thousands of documents (hostnames,
 * languages), and each key costs four passes over the string.
 */
export function createFilterKeyCache(maxEntries = 65_536): (value: string) => string {
  const memo = new Map<string, string>();
  return (value) => {
    let key = memo.get(value);
    if (key === undefined) {
      // Clearing wholesale is simpler than LRU and the working set of labels is far below the bound.
      if (memo.size >= maxEntries) memo.clear();
      key = filterKey(value);
      memo.set(value, key);
    }
    return key;
  };
}
