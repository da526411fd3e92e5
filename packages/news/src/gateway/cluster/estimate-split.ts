import {
  byShardOrder,
  combineEstimate,
  estimateDraws,
  mergeStoryCopies,
  storiesToCount,
  type V2EstimateBody,
  type V2EstimateIntervals,
  type V2ResolvedDoc,
  type V2StoryCopyCount,
  type WorkerReply,
} from '../../protocol/index.ts';
import type { FanOut } from './fan-out.ts';
import type { Part } from './merge.ts';
import type { ReplicaSet } from './replica-set.ts';

/** The part's result, or the refusal to answer with (as the public `kind`, `v2_estimate` by default). */
export function results<T>(
  parts: readonly Part<WorkerReply>[],
  indexVersion: string,
  kind: 'v2_estimate' | 'v2_search' = 'v2_estimate',
): { ok: true; values: T[] } | { ok: false; reply: WorkerReply } {
  const values: T[] = [];
  for (const { reply } of parts) {
    if (reply.kind === 'error') return { ok: false, reply };
    if (!('outcome' in reply)) return { ok: false, reply };
    if (!reply.outcome.ok) return { ok: false, reply: { kind, indexVersion, outcome: reply.outcome } };
    values.push(JSON.parse(reply.outcome.json) as T);
  }
  return { ok: true, values };
}

/**
 * v2 estimate over shards on several workers, in the domain's steps (search-v2/estimate-parts.ts): the workers list
 * their candidate intervals; the gateway decides exact or sampled and draws the sample over all of them with the
 * request's seed; the workers resolve their ranks or draws; with dedupe past the bound, every worker counts the
 * sampled stories' matching copies on its shards (estimate-stories.ts); `combineEstimate` sums. The answer is the
 * one a single worker holding every shard gives (same draws, same order, same arithmetic).
 */
export async function estimateAcross(
  set: ReplicaSet,
  fan: FanOut,
  body: V2EstimateBody,
  ids: readonly string[],
  deadline: number,
  signal?: AbortSignal,
): Promise<WorkerReply> {
  const options = { signal };
  const first = results<V2EstimateIntervals>(
    await fan.run(body.index, ids, () => ({ kind: 'v2_estimate_intervals', body }), deadline, options),
    set.expected,
  );
  if (!first.ok) return first.reply;
  const intervals = byShardOrder(
    ids,
    first.values.map((p) => ({ ids: p.intervals.map((iv) => iv[0]), items: p.intervals })),
  );
  const shardIds = byShardOrder(
    ids,
    first.values.map((p) => ({ ids: p.shard_ids, items: p.shard_ids })),
  );
  const plan: V2EstimateIntervals = {
    intervals,
    shard_ids: shardIds,
    facet_fields: first.values[0]?.facet_fields ?? [],
  };
  const draws = estimateDraws(body, plan);

  let resolved: V2ResolvedDoc[];
  if (draws === null) {
    const needed = [...new Set(intervals.map((iv) => iv[0]))];
    const parts =
      needed.length === 0
        ? []
        : await fan.run(
            body.index,
            needed,
            () => ({ kind: 'v2_estimate_resolve', body: { request: body, draws: null } }),
            deadline,
            options,
          );
    const second = results<{ resolved: V2ResolvedDoc[] }>(parts, set.expected);
    if (!second.ok) return second.reply;
    resolved = byShardOrder(
      ids,
      second.values.map((r) => ({ ids: r.resolved.map((d) => d.shard_id), items: r.resolved })),
    );
  } else {
    // Each worker resolves the draws of its shards, in draw order; answers go back to the draws' positions.
    const positionsOf = (group: readonly string[]) => {
      const g = new Set(group);
      return draws.flatMap((d, i) => (g.has(d[0]) ? [i] : []));
    };
    const needed = [...new Set(draws.map((d) => d[0]))];
    const parts = await fan.run(
      body.index,
      needed,
      (group) => ({
        kind: 'v2_estimate_resolve',
        body: { request: body, draws: positionsOf(group).map((i) => draws[i] as readonly [string, number]) },
      }),
      deadline,
      options,
    );
    const second = results<{ resolved: V2ResolvedDoc[] }>(parts, set.expected);
    if (!second.ok) return second.reply;
    resolved = new Array<V2ResolvedDoc>(draws.length);
    parts.forEach((p, i) =>
      positionsOf(p.shards).forEach((at, j) => {
        resolved[at] = (second.values[i] as { resolved: V2ResolvedDoc[] }).resolved[j] as V2ResolvedDoc;
      }),
    );
  }
  // With dedupe past the bound: every worker holding a selected shard counts the sampled stories' copies there.
  const stories = storiesToCount(body, draws, resolved);
  let copies: V2StoryCopyCount[][] = [];
  if (stories !== null && stories.length > 0) {
    const third = results<{ copies: V2StoryCopyCount[] }>(
      await fan.run(
        body.index,
        ids,
        () => ({ kind: 'v2_estimate_stories', body: { request: body, stories } }),
        deadline,
        options,
      ),
      set.expected,
    );
    if (!third.ok) return third.reply;
    copies = third.values.map((v) => v.copies);
  }
  const result = combineEstimate(set.expected, body, plan, resolved, mergeStoryCopies(copies));
  return { kind: 'v2_estimate', indexVersion: set.expected, outcome: { ok: true, json: JSON.stringify(result) } };
}
