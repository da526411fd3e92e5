import { Type } from '@sinclair/typebox';
import { combineNgrams, ngrams } from '../ngrams/ngrams.ts';
import { ANALYSIS_LIMITS } from '../ngrams/limits.ts';
import { closed, filters, indexVersion, query, selection } from '../schema/fields.ts';
import { byYears, defineV2Call, REFUSALS } from './define.ts';

export const NgramsRequest = Type.Object(
  {
    ...selection,
    query: query(1),
    ...filters,
    // An enum, not literals: the gateway's validator (gateway/validation) knows `enum`, as for `case`.
    direction: Type.Optional(
      Type.Unsafe<'right' | 'left'>(
        Type.String({
          enum: ['right', 'left'],
          default: 'right',
          description: 'right: the words that follow the phrase; left: the words that precede it.',
        }),
      ),
    ),
    words: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: ANALYSIS_LIMITS.ngramsWordsMax,
        default: 1,
        description: 'Words in each continuation (1–3).',
      }),
    ),
    complete: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          "Right only: the phrase's last word is a prefix (`econom`); each continuation starts with the completed word (economy, economic…).",
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: ANALYSIS_LIMITS.ngramsListMax,
        default: ANALYSIS_LIMITS.ngramsListDefault,
        description: 'Continuations listed, most frequent first.',
      }),
    ),
    seed: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 4_294_967_295 }), Type.Null()], {
        default: 1,
        description: 'Seed of the samples of large shards: the same request gives the same answer.',
      }),
    ),
  },
  { title: 'NgramsRequest' },
);

export const Continuation = Type.Object(
  {
    words: Type.Array(Type.String(), { description: 'As written, or case-folded with case insensitive.' }),
    count: Type.Number({
      description:
        'Occurrences followed (preceded) by these words; in sampled shards each drawn occurrence counts ranks / sample size.',
    }),
    share: Type.Number({ description: 'count over the counts of all continuations.' }),
  },
  closed,
);

export const NgramsAnswer = Type.Object(
  {
    index_version: indexVersion,
    query: Type.String(),
    direction: Type.Union([Type.Literal('right'), Type.Literal('left')]),
    words: Type.Integer(),
    complete: Type.Boolean(),
    mode: Type.Union([Type.Literal('exact'), Type.Literal('sampled')]),
    total_occurrences: Type.Integer({
      description: 'Candidate occurrences in the selected years, before filters and the whole-word rule.',
    }),
    read_occurrences: Type.Integer({
      description: `Occurrences read: all of a shard's up to ${ANALYSIS_LIMITS.ngramsExactRanks.toLocaleString('en')}, else its seeded sample of ${ANALYSIS_LIMITS.ngramsSampleSize.toLocaleString('en')}.`,
    }),
    sampled_shards: Type.Integer({ description: 'Shards answered from a sample.' }),
    seed: Type.Integer(),
    inside_word: Type.Number({
      description:
        'Occurrences where the phrase ends (left: begins) inside a longer word (weighted like count); not listed.',
    }),
    too_short: Type.Number({
      description:
        "Occurrences with fewer than `words` words before the article's edge (weighted like count); not listed.",
    }),
    other: Type.Number({ description: 'Occurrences whose continuation is not among the listed ones.' }),
    continuations: Type.Array(Continuation, { description: 'Most frequent first (ties by words).' }),
  },
  { title: 'NgramsResponse', ...closed },
);

/** POST /api/v2/ngrams (issue 28): word continuations of a phrase. */
export const ngramsCall = defineV2Call({
  request: NgramsRequest,
  answer: NgramsAnswer,
  route: {
    method: 'POST',
    path: '/ngrams',
    cost: 'expensive',
    summary: `The 1–3 words that follow or precede a phrase, with counts and shares: exact in shards with up to ${ANALYSIS_LIMITS.ngramsExactRanks.toLocaleString('en')} occurrences, else from a seeded sample of ${ANALYSIS_LIMITS.ngramsSampleSize.toLocaleString('en')}.`,
    refusals: [
      REFUSALS.cpuLimit,
      {
        status: 422,
        description: 'unknown_index, invalid_year_range, invalid_query (also complete with direction left).',
      },
      REFUSALS.noCountryTable,
    ],
  },
  routing: byYears(combineNgrams),
  run: ngrams,
});
