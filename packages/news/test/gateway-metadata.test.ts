import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutToCharacters, toMetadataV1, V1_METADATA_BOUNDS } from '../src/gateway/v1/index.ts';
import type { WireMetadata } from '../src/protocol/index.ts';

const EMPTY: WireMetadata = {
  url: null,
  title: null,
  author: null,
  sitename: null,
  hostname: null,
  warc_source: null,
  warc_record_id: null,
  warc_date: null,
  publish_date: null,
  date: null,
  date_source: null,
  language: null,
  lang: null,
  country_tld: null,
  country: null,
  country_source: null,
  country_confidence: null,
  iptc_topic: null,
  scores: null,
  text_xxhash64: '0',
};

describe('v1 metadata projection', () => {
  it('cuts any string to at most max code points, as a prefix that never splits a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.nat(40), (s, max) => {
        const cut = cutToCharacters(s, max);
        expect(s.startsWith(cut)).toBe(true);
        expect([...cut].length).toBe(Math.min(max, [...s].length));
        expect(/\p{Cs}/u.test(cut)).toBe(false);
      }),
    );
  });

  it('keeps only the v1 fields, each within its bound', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom(...Object.keys(EMPTY)), fc.string({ unit: 'binary', maxLength: 3000 })),
        (fields) => {
          const v1 = toMetadataV1({ ...EMPTY, ...fields, scores: null });
          expect(Object.keys(v1).sort()).toEqual(Object.keys(V1_METADATA_BOUNDS).sort());
          for (const [k, bound] of Object.entries(V1_METADATA_BOUNDS)) {
            const v = v1[k as keyof typeof V1_METADATA_BOUNDS];
            if (v !== null) expect([...v].length).toBeLessThanOrEqual(bound);
          }
          if (v1.country_tld !== null) expect(v1.country_tld).toMatch(/^[a-z]{2}$/);
        },
      ),
    );
  });

  it('nulls a country_tld that is not two lowercase letters and keeps one that is', () => {
    expect(toMetadataV1({ ...EMPTY, country_tld: 'at' }).country_tld).toBe('at');
    for (const bad of ['AT', 'a', 'aut', 'ä1', ''])
      expect(toMetadataV1({ ...EMPTY, country_tld: bad }).country_tld).toBeNull();
  });

  it('answers every field null when the year has no metadata store', () => {
    expect(Object.values(toMetadataV1(null)).every((v) => v === null)).toBe(true);
  });
});
