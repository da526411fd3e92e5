import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { join } from 'node:path';
import { openMetadataStore } from '../src/metadata/index.ts';
import type { MetadataStore } from '../src/release/types.ts';
import { buildFixtureRelease, type FixtureArticle } from './gateway-harness.ts';

// Enough articles in one year for the batched path (it starts at four ids), with fields present and absent.
const ARTICLES: FixtureArticle[] = Array.from({ length: 40 }, (_, i) => ({
  text: `Article ${i} about the harbour and the town hall.`,
  warc_date: `2019-0${1 + (i % 9)}-1${i % 10}T08:00:00Z`,
  title: i % 3 === 0 ? null : `Title ${i}`,
  url: `https://example.org/${i}`,
  language: i % 2 ? 'de' : 'en',
  ...(i % 4 === 0 ? { scores: { quality: i / 40 } } : {}),
}));

let store: MetadataStore;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const built = await buildFixtureRelease(ARTICLES, 'fixture-metadata-store');
  cleanup = built.cleanup;
  store = openMetadataStore(join(built.dir, 'indexes', 'news', 'metadata', '2019.sqlite'), { year: '2019' });
});
afterAll(async () => {
  store?.close();
  await cleanup?.();
});

describe('MetadataStore.getMany', () => {
  it('answers, for any list of ids (repeated, unordered, out of range, not integers), what get answers one by one', () => {
    expect(store.docCount).toBe(40);
    const id = fc.oneof(fc.integer({ min: -2, max: store.docCount + 2 }), fc.constantFrom(0.5, Number.NaN, 2 ** 53));
    fc.assert(
      fc.property(fc.array(id, { maxLength: 60 }), (ids) => {
        expect(store.getMany(ids)).toEqual(ids.map((d) => store.get(d)));
      }),
    );
  });

  it('returns every column of a stored article', () => {
    const [first] = store.getMany([0, 1, 2, 3]);
    expect(first?.text_xxhash64).toMatch(/^\d+$/);
    expect(first?.warc_date).toMatch(/^2019-/);
  });
});
