import type { WireMetadata } from '../../protocol/index.ts';

/** v1 metadata fields and their bounds in characters (spec §2). */
export const V1_METADATA_BOUNDS = {
  url: 2048,
  date: 40,
  warc_source: 200,
  language: 20,
  country_tld: 2,
  title: 2000,
  author: 500,
  sitename: 500,
  hostname: 253,
} as const;

export type MetadataV1 = { readonly [K in keyof typeof V1_METADATA_BOUNDS]: string | null };

const COUNTRY_TLD = /^[a-z]{2}$/;

/** The first `max` code points of `s`: a cut at a character boundary, never inside a surrogate pair. */
export function cutToCharacters(s: string, max: number): string {
  if (s.length <= max) return s;
  let units = 0;
  for (let n = 0; n < max && units < s.length; n++) {
    const c = s.charCodeAt(units);
    units += c >= 0xd800 && c <= 0xdbff && units + 1 < s.length ? 2 : 1;
  }
  return s.slice(0, units);
}

/**
 * Projects stored metadata onto v1's fields, each within its bound, so every value a v1 client receives
 * would pass the v1 schema. A country_tld that is not two lowercase letters is null.
 */
export function toMetadataV1(m: WireMetadata | null): MetadataV1 {
  const cut = (key: keyof typeof V1_METADATA_BOUNDS): string | null => {
    const v = m?.[key] ?? null;
    return v === null ? null : cutToCharacters(v, V1_METADATA_BOUNDS[key]);
  };
  const tld = m?.country_tld ?? null;
  return {
    url: cut('url'),
    date: cut('date'),
    warc_source: cut('warc_source'),
    language: cut('language'),
    country_tld: tld !== null && COUNTRY_TLD.test(tld) ? tld : null,
    title: cut('title'),
    author: cut('author'),
    sitename: cut('sitename'),
    hostname: cut('hostname'),
  };
}
