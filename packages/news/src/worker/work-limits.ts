import type { OpenRelease } from '../release/types.ts';
import type { ShardKind } from '../shard/index.ts';
import { WorkBudget } from '../work-budget/index.ts';

/**
 * CPU one v2 request may use on the worker, per index kind (gateway DESIGN.md "Work limits"). Both sit under the
 * gateway's 2 s deadline, so a request over them gets the documented 422 rather than the gateway's 503. The SA
 * kind's whole-word rank budget (200,000 ranks) takes ~0.3 s, well inside its limit; on the compressed kind every
 * rank costs ~100x more, so only the time limit bounds it (the same 200,000 ranks took 44 s), and a lower one
 * frees the shared cores sooner.
 */
export const DEFAULT_CPU_LIMIT_MS: Readonly<Record<ShardKind, number>> = { sa: 1500, compressed: 1000 };

/** Longest run of one request before it lets others run: a cheap request waits at most about this long. */
export const DEFAULT_SLICE_MS = 4;

export interface WorkLimits {
  readonly cpuLimitMs: Readonly<Record<ShardKind, number>>;
  readonly sliceMs: number;
}

export const defaultWorkLimits: WorkLimits = { cpuLimitMs: DEFAULT_CPU_LIMIT_MS, sliceMs: DEFAULT_SLICE_MS };

/** The limit of the release's costliest kind (a release normally holds one kind). */
function cpuLimitOf(release: OpenRelease, limits: WorkLimits): number {
  let limit = Infinity;
  for (const index of release.indexes.values()) {
    for (const s of index.shards) limit = Math.min(limit, limits.cpuLimitMs[s.reader.kind ?? 'sa']);
  }
  return limit === Infinity ? limits.cpuLimitMs.sa : limit;
}

/** Makes each request's `WorkBudget`: its deadline from the envelope, the release kind's CPU limit. */
export function workBudgets(release: OpenRelease, limits: WorkLimits): (deadline: number) => WorkBudget {
  const cpuLimitMs = cpuLimitOf(release, limits);
  return (deadline) => new WorkBudget({ deadline, cpuLimitMs, sliceMs: limits.sliceMs });
}
