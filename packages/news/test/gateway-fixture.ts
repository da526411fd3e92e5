import type { FixtureArticle } from './gateway-harness.ts';

/**
 * Articles written for these tests (no third-party text). Four crawl months → four shards:
 * 2019-01 (A1, A2), 2019-03 (A3), 2020-05 (A4), 2021-07 (A5).
 */
export const LONG_TITLE = '😀'.repeat(2001);
export const LONG_URL = `https://example.org/${'x'.repeat(3000)}`;

export const FIXTURE: readonly FixtureArticle[] = [
  {
    text: 'alpha beta gamma. alpha beta delta.',
    warc_date: '2019-01-05T10:00:00Z',
    title: LONG_TITLE,
    country_tld: 'de',
    language: 'en',
    hostname: 'one.example',
  },
  {
    text: 'Grüße aus Köln, alpha beta.',
    warc_date: '2019-01-20T10:00:00Z',
    title: 'Zwei',
    country_tld: 'DE',
    language: 'de',
  },
  {
    text: '日本語のテキスト alpha 😀 beta',
    warc_date: '2019-03-02T10:00:00Z',
    title: 'Drei',
    country_tld: 'xyz',
    url: LONG_URL,
    language: 'ja',
  },
  { text: 'alpha beta '.repeat(300), warc_date: '2020-05-11T10:00:00Z', title: 'Vier', language: 'en' },
  { text: 'only plain words here, nothing greek.', warc_date: '2021-07-30T10:00:00Z', title: 'Fünf', language: 'en' },
];

/** Overlapping occurrences of `needle` in `hay`, by bytes, as the index counts them. */
export function bruteCount(hay: Buffer, needle: Buffer): number {
  if (needle.length === 0) return hay.length;
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) n++;
  return n;
}
