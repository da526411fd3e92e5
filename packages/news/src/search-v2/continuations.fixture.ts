/** A small fixed release for the continuation tests: German, English and Japanese articles over three shards, two years. */
import type { FixtureArticle } from './memory-release.fixture.ts';

export const VERSION = 'rel-2024-06';

export const ARTICLES: readonly FixtureArticle[] = [
  {
    shard: '2016-05',
    text: 'Berlin ist groß. Berlin!',
    meta: {
      language: 'de',
      lang: 'deu',
      hostname: 'www.taz.de',
      sitename: 'TAZ',
      country: 'DE',
      iptc_topic: 'politik;kultur',
    },
  },
  {
    shard: '2016-05',
    text: 'Die Straße in Berlin',
    meta: { language: 'DE', lang: 'deu', hostname: 'strasse.example', sitename: 'STRASSE Zeitung', country: 'de' },
  },
  {
    shard: '2016-06',
    text: 'Berliner Luft, Berliner Bär',
    meta: { language: 'ｄｅ', hostname: null, sitename: 'Straße Blatt', country: null, iptc_topic: 'Kultur' },
  },
  {
    shard: '2017-01',
    text: 'Paris and Berlin',
    meta: { language: 'en', lang: 'eng', hostname: 'news.example', country: 'FR', iptc_topic: 'politics' },
  },
  {
    shard: '2017-01',
    text: '東京とベルリン、Berlin',
    meta: { language: 'ja', hostname: 'news.livedoor.example', country: 'JP' },
  },
];
