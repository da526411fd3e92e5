/**
 * TypeBox building blocks of the v2 wire shapes (snake_case, the public API's). Each call (calls/) composes its
 * request and answer from these; the gateway validates and documents with them, the worker decodes with them.
 */
import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { REQUEST_BOUNDS } from '../limits.ts';

/** A wire shape as the domain handles it: read-only all the way down (requests are never mutated). */
export type Wire<T> = T extends object ? { readonly [K in keyof T]: Wire<T[K]> } : T;
/** The read-only TS type of a schema. */
export type WireOf<S extends TSchema> = Wire<Static<S>>;

export const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

// ---- requests -------------------------------------------------------------------------------------------------

export const query = (minLength?: number) =>
  Type.String({
    maxLength: REQUEST_BOUNDS.queryMaxLength,
    ...(minLength === undefined ? {} : { minLength }),
    description: 'Phrase matched byte-exactly (case-sensitive) against the UTF-8 article text.',
  });
export const index = Type.String({
  maxLength: REQUEST_BOUNDS.indexMaxLength,
  pattern: REQUEST_BOUNDS.indexPattern,
  description: 'Index name (see available_indexes of info).',
});
export const year = (which: string) =>
  Type.Optional(
    Type.Union([Type.Integer({ minimum: REQUEST_BOUNDS.yearMin, maximum: REQUEST_BOUNDS.yearMax }), Type.Null()], {
      default: null,
      description: `${which} crawl year (inclusive); omit for no bound.`,
    }),
  );
export const expectedIndexVersion = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The index_version returned by find. A stale value is a 409 before any rank is resolved.',
});
export const shardId = Type.String({ maxLength: 40, description: 'A shard_id from the find result.' });
// Integers stay exact JSON numbers: beyond 2^53 − 1 a rank or doc_ix could not be told from its neighbours.
export const rank = (description: string) =>
  Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });
const filter = (matches: string) =>
  Type.Optional(
    Type.Union([Type.Array(Type.String({ maxLength: 500 }), { maxItems: 1000 }), Type.Null()], {
      default: null,
      description: `Keep documents whose ${matches} equals one of these values after NFKC and full case folding. Empty or omitted: no filter.`,
    }),
  );

/** Matching options (research additions): every call that takes a query accepts them. */
export const matching = {
  case: Type.Optional(
    Type.Union(
      [Type.Unsafe<'sensitive' | 'insensitive'>(Type.String({ enum: ['sensitive', 'insensitive'] })), Type.Null()],
      {
        default: 'sensitive',
        description:
          'insensitive: match every spelling equal to the query under full Unicode case folding (ß ~ SS, Σ/σ/ς, İ); intervals then come one per spelling, so a shard can appear several times in find.',
      },
    ),
  ),
  whole_word: Type.Optional(
    Type.Union([Type.Boolean(), Type.Null()], {
      default: false,
      description:
        'Count an occurrence only when the characters around it are not letters or digits (refused for Chinese, Japanese, Thai, Lao, Khmer and Burmese queries). Totals and pages count only whole words; segments still hold every candidate rank.',
    }),
  ),
};
export const MatchingOptions = Type.Object(matching);
export type MatchingRequest = WireOf<typeof MatchingOptions>;

/**
 * The seeded sample of an answer estimated past its exact bound (estimate, search): `when` says when it is drawn.
 * The same request and seed give the same estimate; another seed shows the sampling spread.
 */
export const sampling = (sizeDefault: number, sizeMax: number, when: string) => ({
  sample_size: Type.Optional(
    Type.Union([Type.Integer({ minimum: 100, maximum: sizeMax }), Type.Null()], {
      default: sizeDefault,
      description: when,
    }),
  ),
  seed: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0, maximum: 4_294_967_295 }), Type.Null()], {
      default: 1,
      description: 'Seed of the sample: the same request gives the same estimate.',
    }),
  ),
});

/**
 * `dedupe` (issue 28): count stories instead of articles. A story is counted once, in the crawl period of its first
 * matching article (release order); `none` (default) counts articles as before.
 */
export const dedupe = {
  dedupe: Type.Optional(
    Type.Union(
      [Type.Unsafe<'none' | 'exact' | 'near'>(Type.String({ enum: ['none', 'exact', 'near'] })), Type.Null()],
      {
        default: 'none',
        description:
          'Count stories instead of articles: exact merges equal texts, near also near duplicates (MinHash of word 5-shingles, Jaccard ≥ 0.2); a story counts once, in the crawl period of its first matching article. 422 stories_unavailable on a release built without stories.',
      },
    ),
  ),
};

/** A query over the crawl years [year_min, year_max] of one index. */
export const selection = { query: query(), index, year_min: year('First'), year_max: year('Last'), ...matching };

/** A continuation page: a rank range of one shard, valid only for the release that found it. */
export const rankRange = {
  index,
  shard_id: shardId,
  rank_from: rank('First rank of the page (inclusive).'),
  rank_to: rank('End of the page (exclusive); at most the shard size.'),
  expected_index_version: expectedIndexVersion,
  query: Type.Optional(
    Type.Union([query(), Type.Null()], {
      default: null,
      description: 'When given, [rank_from, rank_to) must lie inside its interval.',
    }),
  ),
  ...matching,
};

export const filters = {
  languages: filter('language (first language identifier)'),
  commonlingua_languages: filter('lang (second language identifier)'),
  topics: filter('topic label (each `;`-separated label of iptc_topic)'),
  sources: filter('hostname or sitename'),
  countries: filter('attributed publisher country (503 without an attribution table)'),
};
export const DocumentFilters = Type.Object(filters);
export type DocumentFilters = WireOf<typeof DocumentFilters>;

// ---- answers --------------------------------------------------------------------------------------------------
// Answers are closed (`additionalProperties: false`): the test that checks real answers against them catches a
// field the domain adds without declaring it.

export const closed = { additionalProperties: false } as const;
export const str = nullable(Type.String());
export const indexVersion = Type.String({
  description: 'The release these results come from; echo it as expected_index_version.',
});
/**
 * A JSON array of fixed length with a type per position (`prefixItems`, JSON Schema 2020-12 as OpenAPI 3.1 reads
 * it; `items` admits any of them for checkers that read only that), typed as the tuple it is. Not `Type.Tuple`: it
 * emits draft-07's `items: [..]`. The cast is on the static type only.
 */
export const tuple = <T extends readonly unknown[]>(items: readonly TSchema[], description?: string) =>
  Type.Array(
    items.length === 1 || new Set(items.map((i) => JSON.stringify(i))).size === 1
      ? (items[0] as TSchema)
      : Type.Union([...items]),
    {
      minItems: items.length,
      maxItems: items.length,
      prefixItems: items,
      ...(description === undefined ? {} : { description }),
    },
  ) as unknown as TUnsafe<T>;
/** Half-open `[lo, hi)`. */
export const interval = tuple<readonly [number, number]>([Type.Integer(), Type.Integer()]);

/** Every stored metadata field of one article (release/types.ts `ArticleMetadata` is checked equal to it). */
export const ArticleMetadata = Type.Object(
  {
    url: str,
    title: str,
    author: str,
    sitename: str,
    hostname: str,
    warc_source: str,
    warc_record_id: str,
    warc_date: str,
    publish_date: str,
    date: str,
    date_source: str,
    language: str,
    lang: str,
    country_tld: str,
    country: str,
    country_source: str,
    country_confidence: str,
    iptc_topic: str,
    scores: nullable(Type.Record(Type.String(), Type.Number())),
    text_xxhash64: Type.String({
      description: 'xxHash64 (seed 0) of the UTF-8 text, unsigned decimal; keep it a string.',
    }),
  },
  { title: 'ArticleMetadataV2', ...closed },
);

/** The fields every page of one shard's ranks answers with. */
export const page = {
  index_version: indexVersion,
  shard_id: Type.String(),
  rank_from: Type.Integer(),
  rank_to: Type.Integer(),
  page_occurrences: Type.Integer(),
};
