import { Type } from '@sinclair/typebox';
import {
  combineFrequencies,
  DEFAULT_FREQUENCY_LIMIT,
  frequencies,
  MAX_FREQUENCY_LIMIT,
} from '../frequencies/frequencies.ts';
import { caseName, subcorpusFields, yearsOfSubcorpus } from '../frequencies/subcorpus.ts';

export { caseName };
import { COUNT_LIMITS } from '../frequencies/count-articles.ts';
import { closed, expectedIndexVersion, index, indexVersion, nullable, sampling } from '../schema/fields.ts';
import { defineV2Call, type YearSelection } from './define.ts';

/** The `case` option of the word-count calls. */
export const wordCase = Type.Optional(
  Type.Union([caseName(), Type.Null()], {
    default: 'sensitive',
    description:
      'insensitive: words equal under full Unicode case folding are one word (counted folded: Straße → strasse).',
  }),
);

/** The sample of a filtered or query subcorpus counted past its bound (frequencies, keyness). */
export const articleSampling = sampling(
  COUNT_LIMITS.sampleDefault,
  COUNT_LIMITS.sampleMax,
  `Articles drawn (uniformly, without replacement) when a filtered or query subcorpus has more than ${COUNT_LIMITS.exactArticles} articles or ${COUNT_LIMITS.exactBytes} text bytes; counts are then scaled estimates and exact is false.`,
);

/** The sample an answer's counts rest on; null when every selected article was counted. */
export const ArticleSampleAnswer = nullable(
  Type.Object(
    {
      size: Type.Integer({ description: 'Articles drawn.' }),
      population: Type.Integer({ description: 'Articles of the subcorpus they were drawn from.' }),
      seed: Type.Integer(),
    },
    closed,
  ),
);

export const FrequenciesRequest = Type.Object(
  {
    index,
    ...subcorpusFields,
    case: wordCase,
    limit: Type.Optional(
      nullable(
        Type.Integer({
          minimum: 1,
          maximum: MAX_FREQUENCY_LIMIT,
          default: DEFAULT_FREQUENCY_LIMIT,
          description: 'Words listed, most frequent first.',
        }),
      ),
    ),
    ...articleSampling,
    expected_index_version: Type.Optional(nullable(expectedIndexVersion)),
  },
  {
    title: 'FrequenciesRequest',
    description:
      "The most frequent words of crawl years or periods (from the release's word-count tables), or of the articles passing filters or matching a query (counted).",
  },
);

export const WordFrequency = Type.Object(
  {
    word: Type.String(),
    count: Type.Integer(),
    per_million: Type.Number({ description: 'count per million word tokens of the subcorpus.' }),
  },
  closed,
);

export const FrequenciesAnswer = Type.Object(
  {
    index_version: indexVersion,
    case: caseName(),
    tokens: Type.Integer({
      description: 'Word tokens of the subcorpus (Unicode word segments with a letter or digit).',
    }),
    shard_ids: Type.Array(Type.String()),
    words: Type.Array(WordFrequency, { description: 'Most frequent first; equal counts by word.' }),
    rest_max: Type.Integer({
      description: 'Upper bound of the count of any word not listed (0: every word is listed).',
    }),
    exact: Type.Boolean({
      description:
        'True when every listed count and the order are exact; false when counted from a sample of articles, or when workers holding parts of the subcorpus could not prove it.',
    }),
    sample: ArticleSampleAnswer,
  },
  { title: 'FrequenciesResponse', ...closed },
);

export const wordCountRefusal = {
  status: 422,
  description:
    'word_counts_missing: the release was built before word-count tables; rebuild the release. unknown_period, unknown_index, invalid_year_range, invalid_query and query_too_complex (the query of a subcorpus), query_too_expensive (a query subcorpus past the exact bound of search: its articles cannot be sampled uniformly), invalid_subcorpus (keyness b: "rest" of whole periods).',
};

/** Routing over crawl years: the years the periods touch. */
export const subcorpusYears = (
  b: { readonly index: string } & Parameters<typeof yearsOfSubcorpus>[0],
): YearSelection => ({ index: b.index, ...yearsOfSubcorpus(b) });

/** POST /api/v2/frequencies (issue 28 item 4, search-v2/DESIGN.md "Frequency lists and keyness"). */
export const frequenciesCall = defineV2Call({
  request: FrequenciesRequest,
  answer: FrequenciesAnswer,
  route: {
    method: 'POST',
    path: '/frequencies',
    cost: 'cheap',
    summary:
      "Top words of crawl years, periods, filtered articles or a query's articles, with counts and rates per million words.",
    refusals: [wordCountRefusal],
  },
  routing: { by: 'years', of: subcorpusYears, combine: combineFrequencies },
  run: (release, body, work) => frequencies(release, body, work),
});
