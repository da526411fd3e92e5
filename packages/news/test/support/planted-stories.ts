import type { FixtureArticle } from '../gateway-harness.ts';

// Made-up words (no third-party text): a wire story, its exact copy, a copy with 3 of 60 words edited, and another
// story that also mentions oil prices.
const words = (seed: number, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `w${(seed * 7919 + i * 104729) % 99991}`);
const wire = ['Oil', 'prices', ...words(1, 58)];
const edited = wire.map((w, i) => (i % 20 === 7 ? `edit${i}` : w));
const other = ['Oil', 'prices', ...words(2, 58)];
const site = (n: number, warc: string, text: string[]): FixtureArticle => ({
  text: text.join(' ') + '.',
  warc_date: warc,
  url: `https://s${n}.synthetic.example/a`,
  hostname: `s${n}.synthetic.example`,
  title: `SYNTHETIC ${n}`,
});
export const ARTICLES: readonly FixtureArticle[] = [
  site(1, '2023-12-30T10:00:00', wire),
  site(2, '2024-01-02T10:00:00', wire),
  site(3, '2024-01-03T10:00:00', other),
  site(4, '2024-02-05T10:00:00', edited),
];
