import { describe, expect, it } from 'vitest';
import { describeRelease } from './info.ts';
import { buildMemoryRelease } from './memory-release.fixture.ts';

const ARTICLES = [
  { shard: '2023-01', text: 'alpha', meta: { language: 'de', hostname: 'a.example' } },
  { shard: '2024-02', text: 'beta', meta: { language: 'en', iptc_topic: 'sport', country: 'AT', lang: '' } },
];

describe('filter support in info', () => {
  it('serves a filter when any article of any year has a value, and names an empty field no_values', async () => {
    const release = await buildMemoryRelease(ARTICLES);
    expect(describeRelease(release).filters).toEqual({
      languages: { available: true, reason: null },
      commonlingua_languages: { available: false, reason: 'no_values' },
      topics: { available: true, reason: null },
      sources: { available: true, reason: null },
      countries: { available: true, reason: null },
    });
  });

  it('names a release without an attribution table, whatever its articles say', async () => {
    const release = await buildMemoryRelease(ARTICLES, { hasCountryAttribution: false });
    expect(describeRelease(release).filters.countries).toEqual({ available: false, reason: 'no_attribution_table' });
  });

  it('serves sources from site names alone and refuses countries when no article has one', async () => {
    const release = await buildMemoryRelease([{ shard: '2024', text: 'gamma', meta: { sitename: 'Gamma Post' } }]);
    const { sources, countries } = describeRelease(release).filters;
    expect([sources, countries]).toEqual([
      { available: true, reason: null },
      { available: false, reason: 'no_values' },
    ]);
  });
});
