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
  kind: 'v2_estimate' | 'v2_search' | 'v2_timeline' = 'v2_estimate',
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

/** The public kind a step's refusal is answered as, and what each step needs to reach the workers. */
export interface StepContext {
  readonly set: ReplicaSet;
  readonly fan: FanOut;
  readonly ids: readonly string[];
  readonly deadline: number;
  readonly signal?: AbortSignal | undefined;
  readonly kind: 'v2_estimate' | 'v2_timeline';
}

type Step<T> = { ok: true; value: T } | { ok: false; reply: WorkerReply };

/** Step 1: every worker's candidate intervals, put in shard order (the order draws are made in). */
export async function intervalsAcross(ctx: StepContext, body: V2EstimateBody): Promise<Step<V2EstimateIntervals>> {
  const { set, fan, ids, deadline, signal, kind } = ctx;
  const first = results<V2EstimateIntervals>(
    await fan.run(body.index, ids, () => ({ kind: 'v2_estimate_intervals', body }), deadline, { signal }),
    set.expected,
    kind,
  );
  if (!first.ok) return first;
  const intervals = byShardOrder(
    ids,
    first.values.map((p) => ({ ids: p.intervals.map((iv) => iv[0]), items: p.intervals })),
  );
  const shardIds = byShardOrder(
    ids,
    first.values.map((p) => ({ ids: p.shard_ids, items: p.shard_ids })),
  );
  return { ok: true, value: { intervals, shard_ids: shardIds, facet_fields: first.values[0]?.facet_fields ?? [] } };
}

/** Step 2: the draws (null: every rank) resolved where their shards are, in the order one worker gives. */
export async function resolveAcross(
  ctx: StepContext,
  body: V2EstimateBody,
  plan: V2EstimateIntervals,
  draws: ReturnType<typeof estimateDraws>,
): Promise<Step<V2ResolvedDoc[]>> {
  const { set, fan, ids, deadline, signal, kind } = ctx;
  const options = { signal };
  if (draws === null) {
    const needed = [...new Set(plan.intervals.map((iv) => iv[0]))];
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
    const second = results<{ resolved: V2ResolvedDoc[] }>(parts, set.expected, kind);
    if (!second.ok) return second;
    return {
      ok: true,
      value: byShardOrder(
        ids,
        second.values.map((r) => ({ ids: r.resolved.map((d) => d.shard_id), items: r.resolved })),
      ),
    };
  }
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
  const second = results<{ resolved: V2ResolvedDoc[] }>(parts, set.expected, kind);
  if (!second.ok) return second;
  const resolved = new Array<V2ResolvedDoc>(draws.length);
  parts.forEach((p, i) =>
    positionsOf(p.shards).forEach((at, j) => {
      resolved[at] = (second.values[i] as { resolved: V2ResolvedDoc[] }).resolved[j] as V2ResolvedDoc;
    }),
  );
  return { ok: true, value: resolved };
}

/** Step 3, with dedupe past the bound: the sampled stories' copies on every worker holding a selected shard, merged. */
export async function copiesAcross(
  ctx: StepContext,
  body: V2EstimateBody,
  stories: readonly number[] | null,
): Promise<Step<Map<number, V2StoryCopyCount>>> {
  const { set, fan, ids, deadline, signal, kind } = ctx;
  if (stories === null || stories.length === 0) return { ok: true, value: mergeStoryCopies([]) };
  const third = results<{ copies: V2StoryCopyCount[] }>(
    await fan.run(
      body.index,
      ids,
      () => ({ kind: 'v2_estimate_stories', body: { request: body, stories } }),
      deadline,
      { signal },
    ),
    set.expected,
    kind,
  );
  if (!third.ok) return third;
  return { ok: true, value: mergeStoryCopies(third.values.map((v) => v.copies)) };
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
  const ctx: StepContext = { set, fan, ids, deadline, signal, kind: 'v2_estimate' };
  const plan = await intervalsAcross(ctx, body);
  if (!plan.ok) return plan.reply;
  const draws = estimateDraws(body, plan.value);
  const resolved = await resolveAcross(ctx, body, plan.value, draws);
  if (!resolved.ok) return resolved.reply;
  const copies = await copiesAcross(ctx, body, storiesToCount(body, draws, resolved.value));
  if (!copies.ok) return copies.reply;
  const result = combineEstimate(set.expected, body, plan.value, resolved.value, copies.value);
  return { kind: 'v2_estimate', indexVersion: set.expected, outcome: { ok: true, json: JSON.stringify(result) } };
}
