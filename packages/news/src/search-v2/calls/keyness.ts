import { Type } from '@sinclair/typebox';
import { combineKeyness, DEFAULT_KEYNESS_LIMIT, keyness, MAX_KEYNESS_LIMIT } from '../frequencies/keyness.ts';
import { Subcorpus, yearsOfSubcorpus } from '../frequencies/subcorpus.ts';
import { closed, expectedIndexVersion, index, indexVersion, nullable } from '../schema/fields.ts';
import { defineV2Call, type YearSelection } from './define.ts';
import { articleSampling, ArticleSampleAnswer, caseName, wordCase, wordCountRefusal } from './frequencies.ts';

export const KeynessRequest = Type.Object(
  {
    index,
    a: Subcorpus,
    b: Type.Union([Subcorpus, Type.Literal('rest')], {
      description:
        'The reference subcorpus, or "rest": the articles of A\'s crawl periods that A does not hold (A with filters or a query), its counts the tables minus A\'s.',
    }),
    case: wordCase,
    limit: Type.Optional(
      nullable(
        Type.Integer({
          minimum: 1,
          maximum: MAX_KEYNESS_LIMIT,
          default: DEFAULT_KEYNESS_LIMIT,
          description: 'Words listed in each direction.',
        }),
      ),
    ),
    min_count: Type.Optional(
      nullable(
        Type.Integer({
          minimum: 1,
          maximum: 1_000_000,
          default: 1,
          description: 'Leave out words seen fewer times in A and B together.',
        }),
      ),
    ),
    ...articleSampling,
    expected_index_version: Type.Optional(nullable(expectedIndexVersion)),
  },
  {
    title: 'KeynessRequest',
    description:
      "Keywords of subcorpus A against B and of B against A (crawl years or periods, metadata filters, a query's articles, or B the rest of A).",
  },
);

export const KeyWord = Type.Object(
  {
    word: Type.String(),
    count_a: Type.Integer(),
    count_b: Type.Integer(),
    per_million_a: Type.Number(),
    per_million_b: Type.Number(),
    log_likelihood: Type.Number({
      description: 'G² of Rayson & Garside (2000); 3.84 is p < 0.05, 15.13 p < 0.0001 (one degree of freedom).',
    }),
    log_ratio: Type.Number({
      description: 'log2 of the ratio of relative frequencies (Hardie 2014), a zero count taken as 0.5.',
    }),
  },
  closed,
);

const Totals = Type.Object(
  { tokens: Type.Integer(), shard_ids: Type.Array(Type.String()), sample: ArticleSampleAnswer },
  closed,
);

export const KeynessAnswer = Type.Object(
  {
    index_version: indexVersion,
    case: caseName(),
    a: Totals,
    b: Totals,
    a_over_b: Type.Array(KeyWord, { description: 'Relatively more frequent in A, largest log-likelihood first.' }),
    b_over_a: Type.Array(KeyWord, { description: 'Relatively more frequent in B, largest log-likelihood first.' }),
    exact: Type.Boolean({
      description:
        'False when a side was counted from a sample of articles (its sample says how many), or when workers holding parts of A or B answered separately and counts of a listed word may be missing.',
    }),
  },
  { title: 'KeynessResponse', ...closed },
);

/** Routing over crawl years: every year either subcorpus touches. */
function keynessYears(b: {
  readonly index: string;
  readonly a: Subcorpus;
  readonly b: Subcorpus | 'rest';
}): YearSelection {
  const x = yearsOfSubcorpus(b.a);
  const y = b.b === 'rest' ? x : yearsOfSubcorpus(b.b);
  const lo = x.year_min === null || y.year_min === null ? null : Math.min(x.year_min, y.year_min);
  const hi = x.year_max === null || y.year_max === null ? null : Math.max(x.year_max, y.year_max);
  return { index: b.index, year_min: lo, year_max: hi };
}

/** POST /api/v2/keyness (issue 28 item 4, search-v2/DESIGN.md "Frequency lists and keyness"). */
export const keynessCall = defineV2Call({
  request: KeynessRequest,
  answer: KeynessAnswer,
  route: {
    method: 'POST',
    path: '/keyness',
    cost: 'expensive',
    summary: 'Keywords of one subcorpus against another: log-likelihood and log ratio, with both counts.',
    refusals: [wordCountRefusal],
  },
  routing: { by: 'years', of: keynessYears, combine: combineKeyness },
  run: (release, body, work) => keyness(release, body, work),
});
