import { Type } from '@sinclair/typebox';
import { collocations, combineCollocations } from '../collocations/collocations.ts';
import { ANALYSIS_LIMITS as L } from '../ngrams/limits.ts';
import { closed, filters, indexVersion, nullable, query, selection } from '../schema/fields.ts';
import { byYears, defineV2Call, REFUSALS } from './define.ts';

const side = (which: string) =>
  Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: L.windowMax,
      default: L.windowDefault,
      description: `Words ${which} each occurrence.`,
    }),
  );

export const CollocationsRequest = Type.Object(
  {
    ...selection,
    query: query(1),
    ...filters,
    left: side('before'),
    right: side('after'),
    by_position: Type.Optional(
      Type.Boolean({ default: false, description: "Also give each collocate's count at every window position." }),
    ),
    // An enum, not literals: the gateway's validator (gateway/validation) knows `enum`.
    sort_by: Type.Optional(
      Type.Unsafe<'log_dice' | 'mi' | 'log_likelihood' | 'frequency'>(
        Type.String({
          enum: ['log_dice', 'mi', 'log_likelihood', 'frequency'],
          default: 'log_dice',
          description: 'Order of the list (frequency: in the windows).',
        }),
      ),
    ),
    min_frequency: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        default: 2,
        description: 'Least window frequency of a listed collocate.',
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: L.collocatesMax,
        default: L.collocatesDefault,
        description: 'Collocates listed.',
      }),
    ),
    seed: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: 4_294_967_295 }), Type.Null()], {
        default: 1,
        description: 'Seed of the samples: the same request gives the same answer.',
      }),
    ),
  },
  { title: 'CollocationsRequest' },
);

const Counted = Type.Object({ value: Type.Number(), exact: Type.Boolean() }, closed);

export const Collocate = Type.Object(
  {
    word: Type.String({
      description: 'A word (UAX #29 segment with a letter or digit), case-folded with case insensitive.',
    }),
    window_frequency: Type.Number({ description: 'f_xy: its occurrences in the windows (sampled shards weighted).' }),
    frequency: Counted,
    log_dice: Type.Number(),
    mi: Type.Number(),
    log_likelihood: Type.Number(),
    positions: nullable(
      Type.Array(Type.Number(), { description: 'With by_position: counts at positions −left…−1, then +1…+right.' }),
    ),
    example: Type.Object(
      { shard_id: Type.String(), rank: Type.Integer() },
      {
        description: 'One occurrence of the query with this word in its window (open it with contexts or get_doc).',
        ...closed,
      },
    ),
  },
  closed,
);

export const CollocationsAnswer = Type.Object(
  {
    index_version: indexVersion,
    query: Type.String(),
    left: Type.Integer(),
    right: Type.Integer(),
    mode: Type.Union([Type.Literal('exact'), Type.Literal('sampled')]),
    total_occurrences: Type.Integer({
      description: 'Candidate occurrences in the selected years, before filters and the whole-word rule.',
    }),
    read_occurrences: Type.Integer({
      description: `Occurrences read: all of a shard's up to ${L.collocationsExactRanks.toLocaleString('en')}, else its seeded sample of ${L.collocationsSampleSize.toLocaleString('en')}.`,
    }),
    sampled_shards: Type.Integer(),
    seed: Type.Integer(),
    node_frequency: Type.Number({ description: 'f_x: occurrences of the query that count (sampled shards weighted).' }),
    corpus_words: Counted,
    collocates: Type.Array(Collocate),
  },
  { title: 'CollocationsResponse', ...closed },
);

/** POST /api/v2/collocations (issue 28): the words around a query's occurrences, with association scores. */
export const collocationsCall = defineV2Call({
  request: CollocationsRequest,
  answer: CollocationsAnswer,
  route: {
    method: 'POST',
    path: '/collocations',
    cost: 'expensive',
    summary: `Words within a window of a query's occurrences with logDice, MI and log-likelihood: exact in shards with up to ${L.collocationsExactRanks.toLocaleString('en')} occurrences, else from a seeded sample of ${L.collocationsSampleSize.toLocaleString('en')}.`,
    refusals: [
      REFUSALS.cpuLimit,
      { status: 422, description: 'unknown_index, invalid_year_range, invalid_query.' },
      REFUSALS.noCountryTable,
    ],
  },
  routing: byYears(combineCollocations),
  run: collocations,
});
