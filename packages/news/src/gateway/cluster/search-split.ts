import {
  mergeStoryCopies,
  storiesToComplete,
  type V2SearchBody,
  type V2SearchResult,
  type V2StoryCopyCount,
  type WorkerReply,
} from '../../protocol/index.ts';
import { results } from './estimate-split.ts';
import type { FanOut } from './fan-out.ts';
import type { ReplicaSet } from './replica-set.ts';

/** The combine of the search call: the answers of disjoint shard sets, with the shared stories' copies. */
export type CombineSearch = (
  parts: readonly V2SearchResult[],
  ctx: { order: readonly string[]; indexVersion: string },
  body: V2SearchBody,
  copies: ReadonlyMap<number, { readonly copies: number }>,
) => V2SearchResult;

/**
 * v2 search over shards on several workers: as a `years` call (each worker answers for its shards, `combine`
 * merges), with one more round when a part was sampled with dedupe (search-v2/DESIGN.md, "Stories past the exact
 * bound"): the stories several workers may hold go to every worker of the selection, each counting their matching
 * articles there (`v2_search_stories`), and `combine` weighs each story by its copies over all of them.
 */
export async function searchAcross(
  set: ReplicaSet,
  fan: FanOut,
  body: V2SearchBody,
  ids: readonly string[] | null,
  combine: CombineSearch,
  deadline: number,
  signal?: AbortSignal,
): Promise<WorkerReply> {
  const options = { signal };
  const parts = await fan.run(body.index, ids ?? [], () => ({ kind: 'v2_search', body }), deadline, options);
  // One worker holding every selected shard answers whole (it never sends the merge fields).
  if (parts.length === 1) return (parts[0] as (typeof parts)[number]).reply;
  const first = results<V2SearchResult>(parts, set.expected, 'v2_search');
  if (!first.ok) return first.reply;
  const stories = storiesToComplete(first.values);
  let copies: V2StoryCopyCount[][] = [];
  if (stories.length > 0) {
    const second = results<{ copies: V2StoryCopyCount[] }>(
      await fan.run(
        body.index,
        ids ?? [],
        () => ({ kind: 'v2_search_stories', body: { request: body, stories } }),
        deadline,
        options,
      ),
      set.expected,
      'v2_search',
    );
    if (!second.ok) return second.reply;
    copies = second.values.map((v) => v.copies);
  }
  const result = combine(
    first.values,
    { order: ids ?? [], indexVersion: set.expected },
    body,
    mergeStoryCopies(copies),
  );
  return { kind: 'v2_search', indexVersion: set.expected, outcome: { ok: true, json: JSON.stringify(result) } };
}
