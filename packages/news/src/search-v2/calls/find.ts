import { Type } from '@sinclair/typebox';
import { combineFind, find } from '../find.ts';
import { closed, indexVersion, interval, query, selection } from '../schema/fields.ts';
import { byYears, defineV2Call, REFUSALS } from './define.ts';

export const FindRequest = Type.Object({ ...selection, query: query(1) }, { title: 'FindV2Request' });

export const FindAnswer = Type.Object(
  {
    index_version: indexVersion,
    total_occurrences: Type.Integer(),
    segment_by_shard: Type.Array(interval, {
      description: 'Half-open [start, end) per shard, aligned with shard_ids.',
    }),
    shard_ids: Type.Array(Type.String()),
    shard_years: Type.Array(Type.String()),
  },
  { title: 'FindV2Response', ...closed },
);

/** POST /api/v2/find (spec §4 v2). */
export const findCall = defineV2Call({
  request: FindRequest,
  answer: FindAnswer,
  route: {
    method: 'POST',
    path: '/find',
    cost: 'by_matching',
    summary: 'Rank intervals of a phrase per shard, with shard ids and the release (index_version).',
    refusals: [REFUSALS.cpuLimit, { status: 422, description: 'unknown_index, invalid_year_range.' }],
  },
  routing: byYears(combineFind),
  run: find,
});
