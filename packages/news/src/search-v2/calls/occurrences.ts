import { Type } from '@sinclair/typebox';
import { V2_LIMITS } from '../limits.ts';
import { occurrencesJson } from '../occurrences.ts';
import { closed, page, rankRange } from '../schema/fields.ts';
import { byShard, defineV2Call, REFUSALS } from './define.ts';

export const OccurrencesRequest = Type.Object(rankRange, {
  title: 'OccurrencesRequest',
  description: `At most ${V2_LIMITS.occurrencesRanks} ranks per call.`,
});

export const Occurrence = Type.Object(
  {
    rank: Type.Integer(),
    year: Type.String(),
    doc_ix: Type.Integer(),
    offset: Type.Integer({ description: 'Byte offset of the match in the article.' }),
  },
  closed,
);

export const OccurrencesAnswer = Type.Object(
  { ...page, occurrences: Type.Array(Occurrence) },
  { title: 'OccurrencesResponse', ...closed },
);

/** POST /api/v2/occurrences (spec §4 v2); the page is encoded as text directly (occurrences.ts). */
export const occurrencesCall = defineV2Call({
  request: OccurrencesRequest,
  answer: OccurrencesAnswer,
  route: {
    method: 'POST',
    path: '/occurrences',
    cost: 'expensive',
    summary: `Resolve up to ${V2_LIMITS.occurrencesRanks.toLocaleString('en')} ranks of one shard to (year, doc_ix, byte offset).`,
    refusals: [REFUSALS.cpuLimit, REFUSALS.stale, REFUSALS.ranks(V2_LIMITS.occurrencesRanks)],
  },
  routing: byShard,
  run: occurrencesJson,
});
