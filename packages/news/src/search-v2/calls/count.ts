import { Type } from '@sinclair/typebox';
import { combineCount, count } from '../find.ts';
import { closed, indexVersion, selection } from '../schema/fields.ts';
import { byYears, defineV2Call, REFUSALS } from './define.ts';

export const CountRequest = Type.Object(selection, { title: 'CountV2Request' });

/** The gateway adds `latency_ms` (gateway/v2). */
export const CountAnswer = Type.Object(
  { index_version: indexVersion, count: Type.Integer() },
  { title: 'CountV2Answer', ...closed },
);

/** POST /api/v2/count (spec §4 v2). */
export const countCall = defineV2Call({
  request: CountRequest,
  answer: CountAnswer,
  route: {
    method: 'POST',
    path: '/count',
    cost: 'by_matching',
    summary: 'Occurrences of a phrase in the selected crawl years.',
    refusals: [REFUSALS.cpuLimit],
  },
  routing: byYears(combineCount),
  run: count,
});
