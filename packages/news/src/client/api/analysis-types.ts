/**
 * The word analyses' wire shapes (`/api/v2/collocations`, `/ngrams`, `/frequencies`, `/keyness`), declared by the
 * server's request and answer schemas and imported as types only (erased from the bundle), so they cannot drift.
 */
import type { CollocationsAnswer, CollocationsRequest } from '../../search-v2/calls/collocations.ts';
import type { FrequenciesAnswer, FrequenciesRequest } from '../../search-v2/calls/frequencies.ts';
import type { KeynessAnswer, KeynessRequest } from '../../search-v2/calls/keyness.ts';
import type { NgramsAnswer, NgramsRequest } from '../../search-v2/calls/ngrams.ts';
import type { WireOf } from '../../search-v2/schema/fields.ts';

export type CollocationsResponse = WireOf<typeof CollocationsAnswer>;
export type Collocate = CollocationsResponse['collocates'][number];
export type CollocationSort = NonNullable<WireOf<typeof CollocationsRequest>['sort_by']>;
export type NgramsResponse = WireOf<typeof NgramsAnswer>;
export type Continuation = NgramsResponse['continuations'][number];
export type FrequenciesResponse = WireOf<typeof FrequenciesAnswer>;
export type KeynessResponse = WireOf<typeof KeynessAnswer>;
export type KeyWord = KeynessResponse['a_over_b'][number];

/** Each analysis path with its request body and answer, so `ApiClient.analysis` is typed by the path it is given. */
export interface AnalysisCalls {
  '/api/v2/collocations': { request: WireOf<typeof CollocationsRequest>; answer: CollocationsResponse };
  '/api/v2/ngrams': { request: WireOf<typeof NgramsRequest>; answer: NgramsResponse };
  '/api/v2/frequencies': { request: WireOf<typeof FrequenciesRequest>; answer: FrequenciesResponse };
  '/api/v2/keyness': { request: WireOf<typeof KeynessRequest>; answer: KeynessResponse };
}
