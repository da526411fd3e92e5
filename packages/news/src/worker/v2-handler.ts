import type { OpenRelease } from '../release/types.ts';
import type { V2Kind, V2Outcome, V2WorkerReply, V2WorkerRequest } from '../protocol/index.ts';
import { assertNever } from '../protocol/index.ts';
import {
  contexts, count, describeRelease, documents, estimate, estimateIntervals, find, getDoc, metadataJson, occurrencesJson, resolveEstimate, search, timeline, V2Error,
} from '../search-v2/index.ts';
import { WorkStopped, type WorkBudget } from '../work-budget/index.ts';

/** A stopped computation as its documented refusal: over the CPU limit (422), or no longer wanted (503). */
function stoppedError(e: WorkStopped): V2Error {
  if (e.reason === 'cpu_limit') {
    return new V2Error('query_too_expensive',
      `query too expensive: it needed more than ${e.cpuLimitMs} ms of CPU on this index; narrow it (fewer years, a longer phrase, ` +
      'case-sensitive or without whole_word) or use estimate, which samples', { limit_ms: e.cpuLimitMs });
  }
  return new V2Error('deadline_exceeded', `the request ${e.reason === 'deadline' ? 'passed its deadline' : 'was cancelled'} before the worker finished; try again`);
}

/** Runs one domain call and encodes its response; a `V2Error` (or a stop of its work) becomes the documented refusal. */
async function outcome(run: () => unknown): Promise<V2Outcome> {
  try {
    const result: unknown = await run();
    return { ok: true, json: typeof result === 'string' ? result : JSON.stringify(result) };
  } catch (e) {
    if (e instanceof V2Error) return { ok: false, error: e.toBody() };
    if (e instanceof WorkStopped) return { ok: false, error: stoppedError(e).toBody() };
    throw e;
  }
}

/**
 * Answers the v2 protocol requests from the open release through the v2 domain layer, within the request's `work`
 * (deadline, cancel, CPU limit; long loops pause between slices so other requests are answered meanwhile).
 * Continuations check `expected_index_version` here, in the process that holds the data, so a worker restarted on
 * another release refuses them (409) before resolving any rank, whatever the gateway last believed.
 */
export function createV2Handler(release: OpenRelease): (request: V2WorkerRequest, work: WorkBudget) => Promise<V2WorkerReply> {
  const indexVersion: string = release.indexVersion;
  const reply = async <K extends V2Kind>(kind: K, o: Promise<V2Outcome>) => ({ kind, indexVersion, outcome: await o }) as Extract<V2WorkerReply, { kind: K }>;
  return (request, work) => {
    switch (request.kind) {
      case 'v2_find': return reply(request.kind, outcome(() => find(release, request.body, work)));
      case 'v2_count': return reply(request.kind, outcome(() => count(release, request.body, work)));
      case 'v2_get_doc': return reply(request.kind, outcome(() => getDoc(release, request.body, work)));
      case 'v2_occurrences': return reply(request.kind, outcome(() => occurrencesJson(release, request.body, work)));
      case 'v2_documents': return reply(request.kind, outcome(() => documents(release, request.body, work)));
      case 'v2_metadata': return reply(request.kind, outcome(() => metadataJson(release, request.body)));
      case 'v2_timeline': return reply(request.kind, outcome(() => timeline(release, request.body, work)));
      case 'v2_contexts': return reply(request.kind, outcome(() => contexts(release, request.body, work)));
      case 'v2_estimate': return reply(request.kind, outcome(() => estimate(release, request.body, work)));
      case 'v2_search': return reply(request.kind, outcome(() => search(release, request.body, work)));
      case 'v2_estimate_intervals': return reply(request.kind, outcome(() => estimateIntervals(release, request.body, work)));
      case 'v2_estimate_resolve':
        return reply(request.kind, outcome(async () => ({ resolved: await resolveEstimate(release, request.body.request, request.body.draws, work) })));
      case 'v2_info': return reply(request.kind, outcome(() => describeRelease(release, request.body.index ?? undefined)));
      default: return assertNever(request, 'v2 request kind');
    }
  };
}
