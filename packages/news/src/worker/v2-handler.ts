import type { OpenRelease } from '../release/types.ts';
import { v2CallOf, type V2Outcome, type V2WorkerReply, type V2WorkerRequest } from '../protocol/index.ts';
import { V2Error } from '../search-v2/index.ts';
import { WorkStopped, type WorkBudget } from '../work-budget/index.ts';

/** A stopped computation as its documented refusal: over the CPU limit (422), or no longer wanted (503). */
function stoppedError(e: WorkStopped): V2Error {
  if (e.reason === 'cpu_limit') {
    return new V2Error(
      'query_too_expensive',
      `query too expensive: it needed more than ${e.cpuLimitMs} ms of CPU on this index; narrow it (fewer years, a longer phrase, ` +
        'case-sensitive or without whole_word) or use estimate, which samples',
      { limit_ms: e.cpuLimitMs },
    );
  }
  return new V2Error(
    'deadline_exceeded',
    `the request ${e.reason === 'deadline' ? 'passed its deadline' : 'was cancelled'} before the worker finished; try again`,
  );
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
export function createV2Handler(
  release: OpenRelease,
): (request: V2WorkerRequest, work: WorkBudget) => Promise<V2WorkerReply> {
  const indexVersion: string = release.indexVersion;
  return async (request, work) => {
    // The decoder checked the body against this call's request schema (protocol/v2-decode.ts).
    const run = () => v2CallOf(request.kind).run(release, request.body, work);
    return { kind: request.kind, indexVersion, outcome: await outcome(run) } as V2WorkerReply;
  };
}
