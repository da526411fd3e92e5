import { Type } from '@sinclair/typebox';
import { V2_CALLS } from '../../protocol/index.ts';

/**
 * The public responses the gateway adds to (every other v2 request and response schema is the call's own,
 * declared in search-v2/calls and reached through the protocol), and the body of a v2 refusal.
 */

const { answer: countAnswer } = V2_CALLS.v2_count;
const { answer: infoAnswer } = V2_CALLS.v2_info;

/** count's answer with the gateway's own timing. */
export const CountV2Response = Type.Object(
  { ...countAnswer.properties, latency_ms: Type.Number() },
  { title: 'CountV2Response' },
);

/** The worker's info with the service's description and the hub retrieval recipe. */
export const InfoV2Response = Type.Object(
  {
    name: Type.String(),
    description: Type.String(),
    index_version: infoAnswer.properties.index_version,
    document_count: infoAnswer.properties.document_count,
    date_range: infoAnswer.properties.date_range,
    shards: infoAnswer.properties.shards,
    available_indexes: infoAnswer.properties.available_indexes,
    filters: infoAnswer.properties.filters,
    hub_retrieval: Type.Object({
      repo: Type.String(),
      revision: Type.Union([Type.String(), Type.Null()]),
      python_example: Type.String(),
      note: Type.String(),
    }),
  },
  { title: 'InfoV2Response' },
);

export const V2ErrorResponse = Type.Object(
  {
    detail: Type.String({ description: 'What happened and what to do.' }),
    code: Type.String({ description: 'Stable code, e.g. stale_index_version.' }),
  },
  { title: 'V2Error', additionalProperties: true },
);
