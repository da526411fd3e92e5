import type { OpenRelease } from '../release/types.ts';
import type { V2Kind, V2Outcome, V2WorkerReply, V2WorkerRequest } from '../protocol/index.ts';
import { assertNever } from '../protocol/index.ts';
import {
  contexts, count, describeRelease, documents, estimate, estimateIntervals, find, getDoc, metadataJson, occurrencesJson, resolveEstimate, timeline, V2Error,
} from '../search-v2/index.ts';

/** Runs one domain call and encodes its response; a `V2Error` becomes the documented refusal. */
function outcome(run: () => unknown): V2Outcome {
  try {
    const result = run();
    return { ok: true, json: typeof result === 'string' ? result : JSON.stringify(result) };
  } catch (e) {
    if (e instanceof V2Error) return { ok: false, error: e.toBody() };
    throw e;
  }
}

/**
 * Answers the v2 protocol requests from the open release through the v2 domain layer. Continuations check
 * `expected_index_version` here, in the process that holds the data, so a worker restarted on another release
 * refuses them (409) before resolving any rank, whatever the gateway last believed.
 */
export function createV2Handler(release: OpenRelease): (request: V2WorkerRequest) => V2WorkerReply {
  const indexVersion: string = release.indexVersion;
  const reply = <K extends V2Kind>(kind: K, o: V2Outcome) => ({ kind, indexVersion, outcome: o }) as Extract<V2WorkerReply, { kind: K }>;
  return (request) => {
    switch (request.kind) {
      case 'v2_find': return reply(request.kind, outcome(() => find(release, request.body)));
      case 'v2_count': return reply(request.kind, outcome(() => count(release, request.body)));
      case 'v2_get_doc': return reply(request.kind, outcome(() => getDoc(release, request.body)));
      case 'v2_occurrences': return reply(request.kind, outcome(() => occurrencesJson(release, request.body)));
      case 'v2_documents': return reply(request.kind, outcome(() => documents(release, request.body)));
      case 'v2_metadata': return reply(request.kind, outcome(() => metadataJson(release, request.body)));
      case 'v2_timeline': return reply(request.kind, outcome(() => timeline(release, request.body)));
      case 'v2_contexts': return reply(request.kind, outcome(() => contexts(release, request.body)));
      case 'v2_estimate': return reply(request.kind, outcome(() => estimate(release, request.body)));
      case 'v2_estimate_intervals': return reply(request.kind, outcome(() => estimateIntervals(release, request.body)));
      case 'v2_estimate_resolve':
        return reply(request.kind, outcome(() => ({ resolved: resolveEstimate(release, request.body.request, request.body.draws) })));
      case 'v2_info': return reply(request.kind, outcome(() => describeRelease(release, request.body.index ?? undefined)));
      default: return assertNever(request, 'v2 request kind');
    }
  };
}
