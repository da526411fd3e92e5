/**
 * The registry of v2 calls: one entry per protocol kind, each declared once in its own file of this folder
 * (define.ts says what a declaration holds and what is derived from it). Adding a call: its file, and its entry here.
 */
import type { WireOf } from '../schema/fields.ts';
import { contextsCall } from './contexts.ts';
import { ngramsCall } from './ngrams.ts';
import { collocationsCall } from './collocations.ts';
import { copiesCall } from './copies.ts';
import { countCall } from './count.ts';
import type { V2Call } from './define.ts';
import { documentsCall } from './documents.ts';
import { estimateCall, estimateIntervalsCall, estimateResolveCall, estimateStoriesCall } from './estimate.ts';
import { findCall } from './find.ts';
import { frequenciesCall } from './frequencies.ts';
import { getDocCall } from './get-doc.ts';
import { infoCall } from './info.ts';
import { keynessCall } from './keyness.ts';
import { metadataCall } from './metadata.ts';
import { occurrencesCall } from './occurrences.ts';
import { searchCall, searchStoriesCall } from './search.ts';
import { timelineCall } from './timeline.ts';

export const V2_CALLS = {
  v2_find: findCall,
  v2_count: countCall,
  v2_get_doc: getDocCall,
  v2_occurrences: occurrencesCall,
  v2_documents: documentsCall,
  v2_metadata: metadataCall,
  v2_timeline: timelineCall,
  v2_contexts: contextsCall,
  v2_estimate: estimateCall,
  v2_info: infoCall,
  v2_search: searchCall,
  v2_search_copies: copiesCall,
  v2_ngrams: ngramsCall,
  v2_collocations: collocationsCall,
  v2_frequencies: frequenciesCall,
  v2_keyness: keynessCall,
  /** Internal (no public route): the gateway's steps of an estimate over shards on several workers. */
  v2_estimate_intervals: estimateIntervalsCall,
  v2_estimate_resolve: estimateResolveCall,
  v2_estimate_stories: estimateStoriesCall,
  v2_search_stories: searchStoriesCall,
} as const;

export type V2Calls = typeof V2_CALLS;
export type V2Kind = keyof V2Calls;
export type V2RequestOf<K extends V2Kind> = WireOf<V2Calls[K]['request']>;
export type V2AnswerOf<K extends V2Kind> = WireOf<V2Calls[K]['answer']>;

export const V2_KINDS = Object.keys(V2_CALLS) as V2Kind[];

/** The declaration of `kind`, widened for code that handles every call alike (decoder, dispatch, routing). */
export const v2CallOf = (kind: V2Kind): V2Call => V2_CALLS[kind] as unknown as V2Call;

export { defineV2Call, byShard, byYears, REFUSALS } from './define.ts';
export type {
  CallCost,
  CallRoute,
  Combine,
  CombineContext,
  EncodedAnswer,
  RefusalDoc,
  Routing,
  V2Call,
  YearSelection,
} from './define.ts';
